package io.localqueue.benchmark;

import io.localqueue.DurabilityMode;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.QueueStats;
import io.localqueue.SimpleQueue;
import io.localqueue.spring.LocalQueueRegistry;
import io.localqueue.spring.ObservedQueues;
import io.localqueue.spring.QueueSettings;
import io.localqueue.spring.actuate.LocalQueueEndpoint;
import io.localqueue.spring.actuate.LocalQueueHealthIndicator;
import io.localqueue.spring.actuate.LocalQueueMetrics;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

/**
 * {@code observe-N}: what one read of a queue's figures costs on a backlog of the large backlog's size (with a few
 * leased jobs), call by call: the exact {@code stats()} and {@code diagnostics()}, their cached views
 * ({@code maxAge} of {@link ObservedQueues#DEFAULT_MAX_AGE}), and the Spring pieces that read through the cached
 * view: the health indicator, one {@code localqueue.jobs} gauge and the endpoint's read of one queue. Nothing writes
 * while it measures, so each cached figure must equal the exact one. Not compared with a raw limit; it runs once,
 * outside the durability modes (reads do not depend on them).
 */
public final class ObservationScenario implements Scenario {

    /** The report section. */
    public static final String GROUP = "observe";

    private static final String QUEUE = "observed";
    private static final int LEASED = 8;
    private static final int EXACT_CALLS = 200;
    private static final int CACHED_CALLS = 10_000;

    @Override
    public String name() {
        return "observe";
    }

    @Override
    public List<ScenarioResult> run(RunContext context) throws Exception {
        Profile profile = context.profile();
        String name = name() + "-" + Format.compact(profile.backlogRows());
        Path directory = context.newDirectory(name);
        context.progress(name + ": building " + profile.backlogRows() + " rows");
        List<ScenarioResult> results = new ArrayList<>();
        Duration maxAge = ObservedQueues.DEFAULT_MAX_AGE;
        try (LocalQueueDatabase database = LocalQueueDatabase.open(directory)) {
            LocalQueueRegistry registry = new LocalQueueRegistry(database,
                    QueueSettings.of(RunContext.DELIVERY, DurabilityMode.RELAXED));
            try {
                SimpleQueue<Object> queue = registry.queue(QUEUE);
                build(directory, profile.backlogRows());
                for (int i = 0; i < LEASED; i++) {
                    queue.getNowait();
                }
                QueueStats exact = queue.stats();
                ObservedQueues observed = new ObservedQueues(registry, maxAge);
                LocalQueueHealthIndicator health = new LocalQueueHealthIndicator(observed, Duration.ofMinutes(5),
                        Clock.systemUTC());
                LocalQueueEndpoint endpoint = new LocalQueueEndpoint(observed, null);
                SimpleMeterRegistry meters = new SimpleMeterRegistry();
                new LocalQueueMetrics(observed).bindTo(meters);
                Gauge ready = meters.get("localqueue.jobs").tag("queue", QUEUE).tag("state", "ready").gauge();

                results.add(measure(context, name + "-stats", EXACT_CALLS, "one exact stats(): the count by state",
                        () -> same(queue.stats(), exact)));
                results.add(measure(context, name + "-diagnostics", EXACT_CALLS,
                        "one exact diagnostics(): the count by state, the oldest due job, the leases, pragmas and "
                                + "file sizes", () -> check(queue.diagnostics().ready() == exact.ready(),
                                "diagnostics ready")));
                results.add(measure(context, name + "-stats-cached", CACHED_CALLS,
                        "one stats(maxAge " + maxAge.toSeconds() + "s)",
                        () -> same(queue.stats(maxAge), exact)));
                results.add(measure(context, name + "-diagnostics-cached", CACHED_CALLS,
                        "one diagnostics(maxAge " + maxAge.toSeconds() + "s), described with the queue's settings",
                        () -> check(queue.diagnostics(maxAge).processing() == exact.processing(),
                                "cached diagnostics processing")));
                results.add(measure(context, name + "-health", CACHED_CALLS,
                        "one health(true): file check, the list of queues, each queue's cached diagnostics (the "
                                + "quick integrity check is reused for 5 min; the warm-up paid it)",
                        () -> {
                            Health checked = health.health(true);
                            check(Status.UP.equals(checked.getStatus()), "health " + checked.getStatus());
                        }));
                results.add(measure(context, name + "-gauge", CACHED_CALLS,
                        "one value() of the localqueue.jobs gauge of state ready",
                        () -> check(ready.value() == exact.ready(), "the gauge")));
                results.add(measure(context, name + "-endpoint", CACHED_CALLS,
                        "one read of /actuator/localqueue/{queue} before JSON: the list of queues and the queue's "
                                + "cached diagnostics",
                        () -> check(endpoint.queue(QUEUE).diagnostics().ready() == exact.ready(), "endpoint ready")));
            } finally {
                registry.destroy();
            }
        }
        return results;
    }

    /** Puts the backlog through a queue of the benchmark's own payload type. */
    private static void build(Path directory, int rows) {
        try (SimpleQueue<BenchMessage> queue = RunContext.openQueue(directory, QUEUE, DurabilityMode.RELAXED)) {
            RunContext.preload(queue, rows);
        }
    }

    private static ScenarioResult measure(RunContext context, String name, int calls, String measures, Read read)
            throws Exception {
        context.progress(name);
        Profile profile = context.profile();
        Validation[] failed = new Validation[1];
        OperationLoop.Timing timing = OperationLoop.run(new OperationLoop.Limits(profile.warmupOperations(),
                profile.warmupTime(), calls, profile.measureTime()), i -> {
                    try {
                        read.call();
                    } catch (IllegalStateException wrong) {
                        if (failed[0] == null) {
                            failed[0] = Validation.failed(wrong.getMessage());
                        }
                    }
                });
        return ScenarioResult.builder(name, GROUP, null)
                .measured(timing, 1, "calls")
                .latency(timing.latencies(), measures)
                .validation(failed[0] != null ? failed[0]
                        : Validation.passed("every read gave the figures of the unchanged queue"))
                .build();
    }

    private static void same(QueueStats read, QueueStats exact) {
        check(read.equals(exact), "stats " + read);
    }

    private static void check(boolean condition, String detail) {
        if (!condition) {
            throw new IllegalStateException(detail + " differs from the exact count");
        }
    }

    /** One read, which throws {@link IllegalStateException} when its figures are wrong. */
    @FunctionalInterface
    private interface Read {
        void call() throws Exception;
    }
}
