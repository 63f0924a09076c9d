package io.localqueue.spring.actuate;

import io.localqueue.QueueDiagnostics;
import io.localqueue.QueueStats;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;

/**
 * The gauges of one queue's counts by state and of its lag, read from its last snapshot: a queue's as
 * {@code localqueue.jobs}, an event-bus subscription's as {@code localqueue.bus.deliveries}. A snapshot that cannot
 * be read gives NaN, logged at debug.
 */
final class CountGauges {

    private CountGauges() {
    }

    /**
     * Registers the gauges {@code <name>} (tag {@code state}: ready, processing, acked, failed),
     * {@code <name>.delayed} and {@code <name>.oldest.age}.
     *
     * @param meters the registry
     * @param name the counts' meter name
     * @param noun what the queue holds, for the descriptions ("jobs", "deliveries")
     * @param tags the tags naming the queue
     * @param stats reads the counts of the last snapshot
     * @param diagnostics reads the last snapshot's diagnostics, for the lag
     * @param log where a failed read is logged
     */
    static void register(MeterRegistry meters, String name, String noun, Tags tags, Supplier<QueueStats> stats,
                         Supplier<QueueDiagnostics> diagnostics, Logger log) {
        count(meters, name, noun, tags, "ready", QueueStats::ready, stats, log);
        count(meters, name, noun, tags, "processing", QueueStats::processing, stats, log);
        count(meters, name, noun, tags, "acked", QueueStats::acked, stats, log);
        count(meters, name, noun, tags, "failed", QueueStats::failed, stats, log);
        Gauge.builder(name + ".delayed", () -> {
                    QueueDiagnostics current = read(diagnostics, tags, log);
                    return current == null ? Double.NaN : current.delayed();
                })
                .description("The " + noun + " among the ready ones not yet due, which no claim takes before their "
                        + "time")
                .tags(tags)
                .register(meters);
        Gauge.builder(name + ".oldest.age", () -> {
                    QueueDiagnostics current = read(diagnostics, tags, log);
                    if (current == null) {
                        return Double.NaN;
                    }
                    Double age = current.oldestAvailableAgeSeconds();
                    return age == null ? 0 : age;
                })
                .description("How long the oldest due one of the " + noun + " has been waiting to be claimed: the "
                        + "lag, 0 when none is due")
                .baseUnit("seconds").tags(tags)
                .register(meters);
    }

    /**
     * Registers the gauge {@code <name>.held}: the ready jobs a full concurrency key holds back, which only a queue's
     * per-key limit makes (a bus subscription has none).
     */
    static void registerHeld(MeterRegistry meters, String name, Tags tags, Supplier<QueueDiagnostics> diagnostics,
                             Logger log) {
        Gauge.builder(name + ".held", () -> {
                    QueueDiagnostics current = read(diagnostics, tags, log);
                    return current == null ? Double.NaN : current.heldJobs();
                })
                .description("The ready jobs a full concurrency key holds back until one of its jobs ends")
                .tags(tags)
                .register(meters);
    }

    private static void count(MeterRegistry meters, String name, String noun, Tags tags, String state,
                              ToLongFunction<QueueStats> count, Supplier<QueueStats> stats, Logger log) {
        Gauge.builder(name, () -> {
                    QueueStats current = read(stats, tags, log);
                    return current == null ? Double.NaN : count.applyAsLong(current);
                })
                .description("The " + noun + " by state")
                .tags(tags).tag("state", state)
                .register(meters);
    }

    private static <T> @Nullable T read(Supplier<T> snapshot, Tags tags, Logger log) {
        try {
            return snapshot.get();
        } catch (RuntimeException unreadable) {
            log.debug("Cannot read the snapshot of {}", tags, unreadable);
            return null;
        }
    }
}
