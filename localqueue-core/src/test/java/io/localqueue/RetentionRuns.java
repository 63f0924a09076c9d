package io.localqueue;

/** Runs a queue's retention now, on the caller's thread, for tests outside this package and for child processes. */
public final class RetentionRuns {

    private RetentionRuns() {
    }

    /**
     * Runs the queue's retention once.
     *
     * @return how many rows it deleted, or -1 when another process had the queue's turn
     */
    public static long runNow(SimpleQueue<?> queue) {
        return queue.jobs().engine().runRetention();
    }
}
