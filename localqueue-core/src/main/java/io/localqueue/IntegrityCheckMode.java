package io.localqueue;

/**
 * How thoroughly {@code checkIntegrity} reads the file: {@code FULL} also cross-checks every index against its
 * table, {@code QUICK} skips that and runs in roughly linear time.
 *
 * @since 0.1.0
 */
public enum IntegrityCheckMode {

    /** SQLite {@code PRAGMA integrity_check}. */
    FULL,

    /** SQLite {@code PRAGMA quick_check}. */
    QUICK;

    /**
     * Returns the lower-case name the Python library reports, "full" or "quick".
     *
     * @return the mode's name in reports
     */
    public String value() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
