package io.localqueue.internal.time;

/**
 * A point on the monotonic clock by which a wait must end; timeouts beyond a century never expire.
 */
public final class Deadline {

    private static final long NEVER_NANOS = Long.MAX_VALUE / 4;

    private final boolean never;
    private final long at;

    private Deadline(boolean never, long at) {
        this.never = never;
        this.at = at;
    }

    public static Deadline after(long timeoutNanos) {
        if (timeoutNanos >= NEVER_NANOS) {
            return new Deadline(true, 0);
        }
        return new Deadline(false, System.nanoTime() + timeoutNanos);
    }

    /** Nanoseconds left, never negative; {@code Long.MAX_VALUE} for a deadline that never comes. */
    public long remainingNanos() {
        if (never) {
            return Long.MAX_VALUE;
        }
        return Math.max(0, at - System.nanoTime());
    }
}
