package io.localqueue.bus;

import io.localqueue.InvalidArgumentException;
import java.util.List;
import java.util.NoSuchElementException;
import org.jspecify.annotations.Nullable;

/**
 * A list as a resumable source: the cursor is the decimal index of the next item, so a resumed ingestion starts
 * where the last committed batch ended. The list is not copied; it must not change while a checkpoint follows it.
 *
 * @param <T> the item type
 * @since 0.1.0
 */
public final class SequenceSource<T> implements ResumableSource<T> {

    private final List<T> items;
    private final @Nullable String fingerprint;

    private SequenceSource(List<T> items, @Nullable String fingerprint) {
        this.items = items;
        this.fingerprint = fingerprint;
    }

    /**
     * Returns a source over a list, without a fingerprint.
     *
     * @param items the items, none null
     * @param <T> the item type
     * @return the source
     * @throws IllegalArgumentException when null
     */
    public static <T> SequenceSource<T> of(List<T> items) {
        return of(items, null);
    }

    /**
     * Returns a source over a list with a fingerprint of the caller's, which a checkpoint compares on resume.
     *
     * @param items the items, none null
     * @param fingerprint what identifies the list's content, or null
     * @param <T> the item type
     * @return the source
     * @throws IllegalArgumentException when the list is null
     */
    public static <T> SequenceSource<T> of(List<T> items, @Nullable String fingerprint) {
        if (items == null) {
            throw new InvalidArgumentException("items", "items must not be null");
        }
        return new SequenceSource<>(items, fingerprint);
    }

    @Override
    public @Nullable String fingerprint() {
        return fingerprint;
    }

    /**
     * Opens the list at an index.
     *
     * @param cursor the decimal index of the next item; null or empty for 0
     * @return the reader
     * @throws IllegalArgumentException when the cursor is not a decimal index within the list
     */
    @Override
    public SourceReader<T> open(@Nullable String cursor) {
        int start = startOf(cursor);
        return new SourceReader<>() {
            private int next = start;

            @Override
            public boolean hasNext() {
                return next < items.size();
            }

            @Override
            public SourceRecord<T> next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                T item = items.get(next);
                next++;
                return new SourceRecord<>(item, Integer.toString(next));
            }

            @Override
            public void close() {
                next = items.size();
            }
        };
    }

    private int startOf(@Nullable String cursor) {
        if (cursor == null || cursor.isEmpty()) {
            return 0;
        }
        int index;
        try {
            index = Integer.parseInt(cursor);
        } catch (NumberFormatException notDecimal) {
            throw new IllegalArgumentException("cursor '" + cursor + "' is not a decimal index");
        }
        if (index < 0 || index > items.size()) {
            throw new IllegalArgumentException("cursor " + index + " is outside the sequence of " + items.size()
                    + " items");
        }
        return index;
    }
}
