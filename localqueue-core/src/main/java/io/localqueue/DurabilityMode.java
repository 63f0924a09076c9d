package io.localqueue;

/**
 * How hard a commit tries to reach the disk; neither mode protects against every hardware or filesystem fault.
 *
 * @since 0.1.0
 */
public enum DurabilityMode {

    /**
     * SQLite {@code synchronous=NORMAL} in WAL mode: the default; an OS crash or power loss may drop the last commits.
     */
    RELAXED(1),

    /**
     * SQLite {@code synchronous=FULL}: every commit is synced to disk before it returns.
     */
    DURABLE(2);

    private final int synchronousLevel;

    DurabilityMode(int synchronousLevel) {
        this.synchronousLevel = synchronousLevel;
    }

    /**
     * Returns the value {@code PRAGMA synchronous} reads back in this mode (1 for NORMAL, 2 for FULL).
     *
     * @return the SQLite synchronous level
     */
    public int synchronousLevel() {
        return synchronousLevel;
    }
}
