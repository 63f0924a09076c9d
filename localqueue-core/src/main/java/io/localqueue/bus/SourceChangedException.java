package io.localqueue.bus;

import io.localqueue.LocalQueueException;

/**
 * A checkpoint follows a source whose fingerprint differs from the one given now: resuming would mix two inputs,
 * so nothing was read. Reset the checkpoint ({@link IngestionCheckpoint#reset()}) to ingest the new source from its
 * start.
 *
 * @since 0.1.0
 */
public class SourceChangedException extends LocalQueueException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message which checkpoint, and both fingerprints
     */
    public SourceChangedException(String message) {
        super(message);
    }
}
