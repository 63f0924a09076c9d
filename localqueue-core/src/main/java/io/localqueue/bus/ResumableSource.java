package io.localqueue.bus;

import org.jspecify.annotations.Nullable;

/**
 * A source an ingestion can resume: it opens at a cursor its own records gave out, and says by its fingerprint
 * whether it is still the source a checkpoint followed (a checkpoint with another fingerprint refuses it with
 * {@link SourceChangedException} before anything is read).
 *
 * @param <T> the item type
 * @since 0.1.0
 */
public interface ResumableSource<T> {

    /**
     * Returns what identifies this source's content, or null when it cannot tell (then a change goes unnoticed).
     *
     * @return the fingerprint, or null
     */
    @Nullable String fingerprint();

    /**
     * Opens the source just after the item whose record gave {@code cursor}, or at its start.
     *
     * @param cursor a cursor from one of this source's records, or null for the start
     * @return the reader
     * @throws IllegalArgumentException when the cursor is not one this source gives out
     */
    SourceReader<T> open(@Nullable String cursor);
}
