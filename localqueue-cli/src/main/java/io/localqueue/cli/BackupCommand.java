package io.localqueue.cli;

import io.localqueue.BackupResult;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.SimpleQueue;
import java.nio.file.Files;
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
        Path absolute = destination.toAbsolutePath().normalize();
        if (Files.exists(absolute)) {
            throw new CliProblem(absolute + " exists already: backup writes into a new directory");
        }
        if (absolute.getParent() == null || !Files.isDirectory(absolute.getParent())) {
            throw new CliProblem("the directory " + absolute.getParent() + " that would hold the backup does not "
                    + "exist");
        }
        Path file = target.file();
        BackupResult result;
        String source;
        if (file != null) {
            // The file as it is, through a read-only connection: whatever its layout, and whoever may write it.
            result = LocalQueueDatabase.backupFile(file.getParent(), absolute);
            source = file.toString();
        } else {
            try (LocalQueueDatabase database = open(); SimpleQueue<byte[]> any = Queues.open(database, "backup")) {
                result = any.backup(absolute);
                source = database.location();
            }
        }
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("source", source);
        document.put("file", result.databasePath().toString());
        document.put("sizeBytes", result.databaseSizeBytes());
        document.put("pages", result.pageCount());
        document.put("verified", result.verified());
        document.put("elapsedMillis", result.elapsed().toMillis());
        if (output.json) {
            output.print(out(), document);
        } else {
            out().println("backed up " + source + " to " + result.databasePath() + " ("
                    + Queues.count(result.databaseSizeBytes()) + " bytes, " + (result.verified() ? "verified"
                    : "NOT verified: " + result.verificationMessages()) + ")");
            out().flush();
        }
    }
}
