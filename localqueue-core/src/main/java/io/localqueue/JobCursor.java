package io.localqueue;

import java.time.Instant;

/**
 * Where a page of {@link SimpleQueue#listJobs(JobState, JobCursor, int)} ended, so that the next page starts after it
 * without counting the rows before (keyset paging): a job put, claimed or finished between two pages is listed
 * in the page its position falls in, never twice; {@link #toString()} and {@link #parse(String)} carry a cursor
 * through a URL.
 *
 * @param priority the last job's stored priority; 0 for pages that are not in claim order
 * @param dueAt the last job's due time
 * @param id the last job's id
 * @since 0.1.0
 */
public record JobCursor(int priority, Instant dueAt, long id) {

    /**
     * Checks the cursor.
     *
     * @throws InvalidArgumentException naming {@code dueAt} when it is null
     */
    public JobCursor {
        if (dueAt == null) {
            throw new InvalidArgumentException("dueAt", "dueAt must not be null");
        }
    }

    /**
     * Reads a cursor {@link #toString()} wrote: {@code priority.dueAtMillis.id}.
     *
     * @param text the cursor's text
     * @return the cursor
     * @throws InvalidArgumentException naming the text when it is not a cursor
     * @since 0.1.0
     */
    public static JobCursor parse(String text) {
        String[] parts = text == null ? new String[0] : text.split("\\.", -1);
        if (parts.length == 3) {
            try {
                return new JobCursor(Integer.parseInt(parts[0]), Instant.ofEpochMilli(Long.parseLong(parts[1])),
                        Long.parseLong(parts[2]));
            } catch (NumberFormatException notNumbers) {
                // reported below
            }
        }
        String shown = text == null || text.length() <= 40 ? text : text.substring(0, 40) + "…";
        throw new InvalidArgumentException("cursor", "'" + shown + "' is not a job cursor (priority.dueAtMillis.id)");
    }

    /**
     * Returns the cursor as {@link #parse(String)} reads it back: {@code priority.dueAtMillis.id}.
     *
     * @return the text
     * @since 0.1.0
     */
    @Override
    public String toString() {
        return priority + "." + dueAt.toEpochMilli() + "." + id;
    }
}
