package io.localqueue;

/**
 * Thrown by a {@link BatchJobHandler} when one job of its batch failed: that job is retried (or dead-lettered) with
 * this exception's cause as its error, and every other job of the batch is acknowledged. An index outside the
 * batch fails the whole batch.
 *
 * @since 0.1.0
 */
public class BatchFailedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int index;

    /**
     * Names the failed job by its position in the batch.
     *
     * @param index the position, from 0, in the list the handler was given
     * @param cause why that job failed; permanent-error matching and the job's last error use it
     * @throws IllegalArgumentException when {@code cause} is null
     */
    public BatchFailedException(int index, Throwable cause) {
        super("job at index " + index + " of the batch failed: " + describe(cause), cause);
        this.index = index;
    }

    /**
     * Returns the failed job's position in the batch.
     *
     * @return the index, from 0
     */
    public int index() {
        return index;
    }

    private static String describe(Throwable cause) {
        if (cause == null) {
            throw new InvalidArgumentException("cause", "cause must not be null");
        }
        return cause.toString();
    }
}
