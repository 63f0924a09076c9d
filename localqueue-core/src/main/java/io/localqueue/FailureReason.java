package io.localqueue;

import org.jspecify.annotations.Nullable;

/**
 * Why a job became a dead letter, stored as text in {@code messages.failure_reason}; a stored value this version
 * does not know, or none at all, reads back as {@link #LEGACY_UNKNOWN}.
 *
 * @since 0.1.0
 */
public enum FailureReason {

    /** The delivery budget was spent by nacks or by leases that expired. */
    RETRIES_EXHAUSTED("retries_exhausted"),
    /** A handler threw an exception configured as permanent. */
    PERMANENT_HANDLER_ERROR("permanent_handler_error"),
    /** The event bus could not resolve the stored event type. */
    UNKNOWN_EVENT_TYPE("unknown_event_type"),
    /** The stored event envelope was not a valid envelope. */
    INVALID_ENVELOPE("invalid_envelope"),
    /** The event payload did not match its type. */
    INVALID_PAYLOAD("invalid_payload"),
    /** A handler ran past its timeout on its last attempt. */
    HANDLER_TIMEOUT("handler_timeout"),
    /** The job was failed explicitly through {@code SimpleQueue.fail}. */
    EXPLICIT_PERMANENT_FAILURE("explicit_permanent_failure"),
    /** The consuming process had no handler for the event type. */
    NO_HANDLER("no_handler"),
    /** A handler rejected the event. */
    REJECTED("rejected"),
    /** The row predates failure reasons or carries a value this version does not know. */
    LEGACY_UNKNOWN("legacy_unknown");

    private final String value;

    FailureReason(String value) {
        this.value = value;
    }

    /**
     * Returns the text stored in the database, shared with the Python library.
     *
     * @return the lower-case snake-case value
     */
    public String value() {
        return value;
    }

    /**
     * Maps a stored value back to a reason; null or an unknown value gives {@link #LEGACY_UNKNOWN}.
     *
     * @param stored the column value
     * @return the matching reason
     */
    public static FailureReason fromStored(@Nullable String stored) {
        if (stored != null) {
            for (FailureReason reason : values()) {
                if (reason.value.equals(stored)) {
                    return reason;
                }
            }
        }
        return LEGACY_UNKNOWN;
    }
}
