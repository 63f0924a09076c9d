package io.localqueue.cli;

import io.localqueue.IntegrityCheckMode;
import io.localqueue.IntegrityCheckResult;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.QueueDiagnostics;
import io.localqueue.SimpleQueue;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;

/**
 * {@code localqueue doctor}: what a careful operator should know of the target, as facts and findings; a finding is a
 * warning (worth a look) or a problem (exit 1).
 */
@Command(name = "doctor", mixinStandardHelpOptions = true,
        description = "Reports the file or schema (engine, versions, layout, sizes, free space) and what deserves a "
                + "look: expired leases, dead letters, paused queues, a large WAL, low disk space, a failed quick "
                + "check (exit 1).")
final class DoctorCommand extends TargetCommand {

    /** A WAL larger than this means checkpoints cannot finish: a long reader somewhere holds an old snapshot. */
    static final long LARGE_WAL_BYTES = 64L * 1024 * 1024;

    /** Less free space than this beside the file leaves little room for a burst, a backup or a vacuum. */
    static final long LOW_FREE_BYTES = 1024L * 1024 * 1024;

    @Override
    public void run() {
        try (LocalQueueDatabase database = open()) {
            Map<String, @Nullable Object> facts = new LinkedHashMap<>();
            List<Map<String, String>> findings = new ArrayList<>();
            facts.put("location", database.location());
            facts.put("engine", database.engine());
            facts.put("engineVersion", database.engineVersion());
            facts.put("localqueueVersion", new CliVersion().getVersion()[0]);
            facts.put("java", System.getProperty("java.version"));
            if (database.isFile()) {
                facts.put("layout", target.readThroughACopy() ? "the Python library's or an earlier release's"
                        : "this release's");
                file(database.file(), facts, findings);
            }
            List<String> names = database.queueNames();
            facts.put("queues", names.size());
            for (String name : names) {
                try (SimpleQueue<byte[]> queue = Queues.open(database, name)) {
                    queue(queue.diagnostics(), facts, findings);
                }
            }
            IntegrityCheckResult check = database.checkIntegrity(IntegrityCheckMode.QUICK, 20);
            facts.put("quickCheck", check.ok() ? "ok" : check.messages().size() + " finding(s)");
            if (!check.ok()) {
                finding(findings, "problem", "the quick check failed: " + check.messages() + "; run 'check', and "
                        + "restore a backup");
            }
            Map<String, Object> document = new LinkedHashMap<>();
            document.put("facts", facts);
            document.put("findings", findings);
            if (output.json) {
                output.print(out(), document);
            } else {
                facts.forEach((name, value) -> out().println(String.format(Locale.ROOT, "%-20s %s", name,
                        value == null ? "-" : value)));
                out().println();
                out().println(findings.isEmpty() ? "nothing to report" : findings.size() + " finding(s):");
                findings.forEach(f -> out().println("  " + f.get("severity") + ": " + f.get("message")));
                out().flush();
            }
            if (findings.stream().anyMatch(f -> f.get("severity").equals("problem"))) {
                throw new CliProblem("doctor found a problem (above)");
            }
        }
    }

    private static void file(Path file, Map<String, @Nullable Object> facts, List<Map<String, String>> findings) {
        facts.put("fileBytes", size(file));
        Long wal = size(Path.of(file + "-wal"));
        facts.put("walBytes", wal);
        if (wal != null && wal > LARGE_WAL_BYTES) {
            finding(findings, "warning", "the WAL is " + Queues.count(wal) + " bytes: checkpoints cannot finish "
                    + "while a reader holds an old snapshot (a long transaction of another process?)");
        }
        try {
            long free = Files.getFileStore(file).getUsableSpace();
            facts.put("freeBytes", free);
            if (free < LOW_FREE_BYTES) {
                finding(findings, "warning", "only " + Queues.count(free) + " bytes are free beside the file");
            }
        } catch (IOException unknown) {
            facts.put("freeBytes", null);
        }
    }

    private static void queue(QueueDiagnostics d, Map<String, @Nullable Object> facts,
                              List<Map<String, String>> findings) {
        String name = d.queueName();
        facts.put("queue " + name, d.pendingJobs() + " pending, " + d.processing() + " leased, " + d.failed()
                + " dead");
        if (d.expiredLeases() > 0) {
            finding(findings, "warning", name + ": " + d.expiredLeases() + " lease(s) expired ("
                    + String.format(Locale.ROOT, "%.0f", d.oldestExpiredLeaseAgeSeconds()) + " s the oldest): their "
                    + "consumer stopped or stalls; the next claim takes them back");
        }
        if (d.failed() > 0) {
            finding(findings, "warning", name + ": " + d.failed() + " dead letter(s); 'failed list --queue " + name
                    + "' shows them");
        }
        if (d.pausedAt() != null) {
            finding(findings, "warning", name + ": paused since " + Jobs.time(d.pausedAt()) + " by " + d.pausedBy()
                    + "; 'resume --queue " + name + "' resumes it");
        }
    }

    private static void finding(List<Map<String, String>> findings, String severity, String message) {
        findings.add(Map.of("severity", severity, "message", message));
    }

    private static @Nullable Long size(Path path) {
        try {
            return Files.exists(path) ? Files.size(path) : null;
        } catch (IOException unreadable) {
            return null;
        }
    }
}
