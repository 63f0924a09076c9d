package io.localqueue.bus;

import java.util.Iterator;

/**
 * The items of a resumable source from one cursor on, read one at a time and closed when the ingestion ends,
 * however it ends.
 *
 * @param <T> the item type
 * @since 0.1.0
 */
public interface SourceReader<T> extends Iterator<SourceRecord<T>>, AutoCloseable {

    /** Releases what the reader holds (a file, a connection); called once, also after a failure. */
    @Override
    void close();
}
