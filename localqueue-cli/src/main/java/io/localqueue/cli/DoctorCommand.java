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
                facts.put("layout", target.readThroughACopy() ? "older" : "current");
                file(database.file(), facts, findings);
            }
            IntegrityCheckResult check = database.checkIntegrity(IntegrityCheckMode.QUICK, 20);
            List<String> damage = CheckCommand.findings(check);
            facts.put("quickCheck", check.ok() ? "ok" : damage.size() + " finding(s)");
            if (!check.ok()) {
                finding(findings, "problem", "the quick check found " + damage.size() + " problem(s), the first: "
                        + damage.get(0) + "; 'check' lists them; " + CheckCommand.DAMAGED);
            }
            List<Map<String, Object>> queues = new ArrayList<>();
            for (String name : database.queueNames()) {
                try (SimpleQueue<byte[]> queue = Queues.open(database, name)) {
                    queues.add(queue(queue.diagnostics(), findings));
                }
            }
            Map<String, Object> document = new LinkedHashMap<>();
            document.put("facts", facts);
            document.put("queues", queues);
            document.put("findings", findings);
            if (output.json) {
                output.print(out(), document);
            } else {
                facts.forEach((name, value) -> out().println(String.format(Locale.ROOT, "%-18s %s", name,
                        value == null ? "-" : value)));
                out().println();
                List<List<String>> rows = queues.stream().map(q -> List.of(String.valueOf(q.get("name")),
                        Queues.count((Long) q.get("ready")), Queues.count((Long) q.get("delayed")),
                        Queues.count((Long) q.get("leased")),
                        Queues.count((Long) q.get("expiredLeases")), Queues.count((Long) q.get("dead")),
                        Boolean.TRUE.equals(q.get("paused")) ? "yes" : "no")).toList();
                out().print(Output.table(List.of("QUEUE", "READY", "DELAYED", "LEASED", "EXPIRED", "DEAD", "PAUSED"), rows,
                        true));
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

    private static Map<String, Object> queue(QueueDiagnostics d, List<Map<String, String>> findings) {
        String name = d.queueName();
        Map<String, Object> queue = new LinkedHashMap<>();
        queue.put("name", name);
        queue.put("ready", d.ready() - d.delayed());
        queue.put("delayed", d.delayed());
        queue.put("leased", d.processing());
        queue.put("expiredLeases", d.expiredLeases());
        queue.put("dead", d.failed());
        queue.put("paused", d.pausedAt() != null);
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
        return queue;
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
