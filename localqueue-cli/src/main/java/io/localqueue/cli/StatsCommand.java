package io.localqueue.cli;

import io.localqueue.LocalQueueDatabase;
import io.localqueue.QueueDiagnostics;
import io.localqueue.SimpleQueue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code localqueue stats}: each queue's (or one queue's) counts by state, lag, leases and the controls every process
 * obeys, from one exact snapshot per queue.
 */
@Command(name = "stats", mixinStandardHelpOptions = true,
        description = "Shows counts (ready, delayed, leased, acked, dead), lag, leases, pause and limits.")
final class StatsCommand extends TargetCommand {

    @Option(names = "--queue", paramLabel = "NAME", description = "Only this queue.")
    @Nullable String queue;

    @Override
    public void run() {
        try (LocalQueueDatabase database = open()) {
            List<Map<String, @Nullable Object>> all = new ArrayList<>();
            for (String name : queue != null ? List.of(queue) : database.queueNames()) {
                try (SimpleQueue<byte[]> opened = queue != null ? Queues.existing(database, name)
                        : Queues.open(database, name)) {
                    all.add(fields(opened.diagnostics()));
                }
            }
            if (queue != null) {
                output.print(out(), all.get(0));
                return;
            }
            List<List<String>> rows = all.stream().map(StatsCommand::row).toList();
            output.print(out(), Map.of("queues", all), List.of("QUEUE", "READY", "DELAYED",
                    "LEASED", "ACKED", "DEAD", "LAG_S", "PAUSED", "LIMITS"), rows);
        }
    }

    /** A queue's stats under their JSON names: stable, so scripts may read them. */
    static Map<String, @Nullable Object> fields(QueueDiagnostics d) {
        Map<String, @Nullable Object> fields = new LinkedHashMap<>();
        fields.put("queue", d.queueName());
        fields.put("ready", d.ready() - d.delayed());
        fields.put("delayed", d.delayed());
        fields.put("leased", d.processing());
        fields.put("expiredLeases", d.expiredLeases());
        fields.put("acked", d.acked());
        fields.put("dead", d.failed());
        fields.put("lagSeconds", d.oldestAvailableAgeSeconds());
        fields.put("nextDueAt", Jobs.time(d.nextDueAt()));
        fields.put("paused", d.pausedAt() != null);
        fields.put("pausedBy", d.pausedBy());
        fields.put("maxConcurrent", d.maxConcurrent());
        fields.put("maxConcurrentPerKey", d.maxConcurrentPerKey());
        fields.put("rateLimitPermits", d.rateLimitPermits());
        fields.put("rateLimitPeriodSeconds", d.rateLimitPeriodSeconds());
        fields.put("heldJobs", d.heldJobs());
        fields.put("observedAt", Jobs.time(d.observedAt()));
        return fields;
    }

    private static List<String> row(Map<String, @Nullable Object> q) {
        String limits = (q.get("maxConcurrent") == null ? "" : "max " + q.get("maxConcurrent") + " ")
                + (q.get("maxConcurrentPerKey") == null ? "" : "per-key " + q.get("maxConcurrentPerKey") + " ")
                + (q.get("rateLimitPermits") == null ? "" : q.get("rateLimitPermits") + "/" + q.get(
                        "rateLimitPeriodSeconds") + "s");
        Object lag = q.get("lagSeconds");
        return List.of(String.valueOf(q.get("queue")), Queues.count((Long) q.get("ready")),
                Queues.count((Long) q.get("delayed")), Queues.count((Long) q.get("leased")),
                Queues.count((Long) q.get("acked")), Queues.count((Long) q.get("dead")),
                lag == null ? "-" : String.format(java.util.Locale.ROOT, "%.1f", (Double) lag),
                Boolean.TRUE.equals(q.get("paused")) ? "yes" : "no", limits.isBlank() ? "-" : limits.strip());
    }
}
