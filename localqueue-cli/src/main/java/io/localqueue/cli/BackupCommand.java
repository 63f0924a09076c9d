package io.localqueue.cli;

import io.localqueue.BackupResult;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.SimpleQueue;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code localqueue backup}: a consistent, verified copy of the file into a new queue directory, taken page by page
 * while other processes go on working.
 */
@Command(name = "backup", mixinStandardHelpOptions = true,
        description = "Copies the file, consistent and verified, into DIR (a new queue directory) while the "
                + "application runs.")
final class BackupCommand extends TargetCommand {

    @Parameters(paramLabel = "DIR", description = "The backup directory: it must not exist yet (its parent must).")
    Path destination;

    @Override
    public void run() {
        try (LocalQueueDatabase database = open(); SimpleQueue<byte[]> any = Queues.open(database, "backup")) {
            BackupResult result = any.backup(destination);
            Map<String, Object> document = new LinkedHashMap<>();
            document.put("source", database.location());
            document.put("file", result.databasePath().toString());
            document.put("sizeBytes", result.databaseSizeBytes());
            document.put("pages", result.pageCount());
            document.put("verified", result.verified());
            document.put("elapsedMillis", result.elapsed().toMillis());
            if (output.json) {
                output.print(out(), document);
            } else {
                out().println("backed up " + database.location() + " to " + result.databasePath() + " ("
                        + Queues.count(result.databaseSizeBytes()) + " bytes, " + (result.verified() ? "verified"
                        : "NOT verified: " + result.verificationMessages()) + ")");
                out().flush();
            }
        }
    }
}
