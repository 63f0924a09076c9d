package io.localqueue.cli;

import io.localqueue.LocalQueueDatabase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;

/**
 * {@code localqueue vacuum}: gives the space of deleted rows back; on a file it holds the write lock while it rebuilds
 * it, so other processes' writes wait (within their busy budget) meanwhile.
 */
@Command(name = "vacuum", mixinStandardHelpOptions = true,
        description = "Gives the space of deleted rows back (rebuilds the file; writers wait meanwhile).")
final class VacuumCommand extends TargetCommand {

    @Override
    public void run() {
        Path file = target.file();
        Long before = size(file);
        try (LocalQueueDatabase database = openForWriting()) {
            database.vacuum();
            Long after = size(file);
            Map<String, @Nullable Object> document = new LinkedHashMap<>();
            document.put("location", database.location());
            document.put("sizeBytesBefore", before);
            document.put("sizeBytesAfter", after);
            if (output.json) {
                output.print(out(), document);
            } else {
                out().println("vacuumed " + database.location() + (before == null ? ""
                        : ": " + Queues.count(before) + " → " + Queues.count(after) + " bytes"));
                out().flush();
            }
        }
    }

    private static @Nullable Long size(@Nullable Path file) {
        try {
            return file == null || !Files.exists(file) ? null : Files.size(file);
        } catch (IOException unreadable) {
            return null;
        }
    }
}
