package io.localqueue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A completed, verified online backup (report schema version 1); a backup that fails verification is never
 * reported, its files are removed and the call throws.
 *
 * @param schemaVersion the version of this report's layout, 1
 * @param destination the backup directory exactly as given
 * @param databasePath the backup's database file inside it
 * @param elapsed how long the backup took, verification included
 * @param pagesCopied pages written to the backup
 * @param pageCount pages in the backup file
 * @param databaseSizeBytes the backup file's size
 * @param verified true: the backup passed a full integrity check
 * @param verificationMode how the backup was checked
 * @param verificationMessages the check's findings, "ok"
 *
 * @since 0.1.0
 */
public record BackupResult(int schemaVersion, Path destination, Path databasePath, Duration elapsed,
                           long pagesCopied, long pageCount, long databaseSizeBytes, boolean verified,
                           IntegrityCheckMode verificationMode, List<String> verificationMessages) {

    /** The layout version of this report. */
    public static final int SCHEMA_VERSION = 1;

    /** Copies the message list so the record stays immutable. */
    public BackupResult {
        verificationMessages = List.copyOf(verificationMessages);
    }
}
