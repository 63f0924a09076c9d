package io.localqueue;

/**
 * What a {@link Worker} did with one delivery after its handler finished.
 *
 * @since 0.1.0
 */
public enum JobOutcome {

    /** The handler returned and the job was acknowledged. */
    ACKED,

    /** The handler threw and the job went back to the queue for another delivery. */
    RETRIED,

    /** The handler threw and the job became a dead letter: a permanent error, or its last delivery failed. */
    DEAD_LETTERED,

    /** The lease was lost before the handler finished, so its result was discarded and nothing changed. */
    DISCARDED,

    /**
     * The worker stopped and interrupted the handler, so the job went back to the queue at once without spending a
     * delivery ({@code attempts} went back down by one).
     */
    RELEASED;

    /**
     * Returns the lower-case name used in metrics tags, such as "dead_lettered".
     *
     * @return the tag value
     */
    public String tag() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
