package io.localqueue.bus;

import java.util.UUID;

/**
 * Execution ids as the executions' tables store them, 32 hexadecimal digits as Python's {@code uuid.hex} writes
 * them, and as the API gives them, UUIDs.
 */
final class ExecutionIds {

    private ExecutionIds() {
    }

    /** Returns a new id, as stored. */
    static String next() {
        return stored(UUID.randomUUID());
    }

    /** Returns the UUID of a stored id. */
    static UUID uuid(String stored) {
        String hex = stored.replace("-", "");
        return new UUID(Long.parseUnsignedLong(hex.substring(0, 16), 16), Long.parseUnsignedLong(hex.substring(16),
                16));
    }

    /** Returns the stored id of a UUID. */
    static String stored(UUID id) {
        return id.toString().replace("-", "");
    }
}
