package io.localqueue;

import java.time.Duration;
import java.util.List;

/**
 * The outcome of an integrity check (report schema version 1); a damaged file gives {@code ok == false} and
 * SQLite's findings in {@code messages}, never an exception.
 *
 * @param schemaVersion the version of this report's layout, 1
 * @param mode how thoroughly the file was read
 * @param maxErrors the most findings reported
 * @param ok true only when the only message is "ok"
 * @param messages SQLite's findings, including foreign-key violations, or just "ok"
 * @param elapsed how long the check took
 *
 * @since 0.1.0
 */
public record IntegrityCheckResult(int schemaVersion, IntegrityCheckMode mode, int maxErrors, boolean ok,
                                   List<String> messages, Duration elapsed) {

    /** The layout version of this report. */
    public static final int SCHEMA_VERSION = 1;

    /** Copies the message list so the record stays immutable. */
    public IntegrityCheckResult {
        messages = List.copyOf(messages);
    }
}
