package io.localqueue.bus;

import io.localqueue.InvalidArgumentException;
/**
 * One item of a resumable source with the cursor that stands just after it: opening the source at that cursor
 * yields the next item.
 *
 * @param value the item
 * @param cursor where the source stands after it
 * @param <T> the item type
 * @since 0.1.0
 */
public record SourceRecord<T>(T value, String cursor) {

    /**
     * Checks that both are given.
     *
     * @throws IllegalArgumentException naming the one that is null
     */
    public SourceRecord {
        if (value == null) {
            throw new InvalidArgumentException("value", "value must not be null");
        }
        if (cursor == null) {
            throw new InvalidArgumentException("cursor", "cursor must not be null");
        }
    }
}
