package io.localqueue.benchmark;

import io.localqueue.DurabilityMode;
import io.localqueue.Serializer;
import io.localqueue.SimpleQueue;
import io.localqueue.Worker;
import io.localqueue.bus.EventBus;
import io.localqueue.bus.SequenceSource;
import io.localqueue.bus.SourceDefinition;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;

/**
 * {@code bus-drain-cN}: consumption alone. A subscription holding the profile's bus rows is drained by N handlers
 * that do nothing, timed from {@link EventBus#start()} to the last handler's return; in the same round a
 * {@link Worker} of concurrency N drains a queue of as many jobs (and another one of jobs as big as the envelopes),
 * timed alike, which gives the ratio to the plain queue.
 */
public final class BusDrainScenario extends PerModeScenario {

    private static final long TIMEOUT_SECONDS = 600;

    private final int concurrency;

    /**
     * Creates the scenario.
     *
     * @param concurrency handlers of the subscription, threads of the worker
     */
    public BusDrainScenario(int concurrency) {
        this.concurrency = concurrency;
    }

    @Override
    public String name() {
        return "bus-drain-c" + concurrency;
    }

    @Override
    public boolean repeated() {
        return true;
    }

    @Override
    protected ScenarioResult runIn(RunContext context, DurabilityMode mode) throws Exception {
        int rows = context.profile().busRows();
        long workerNanos = drainQueue(context.newDirectory(name() + "-worker"), mode, rows);
        long sameSizeNanos = drainSameSize(context.newDirectory(name() + "-worker-same-size"), mode, rows);
        Path directory = context.newDirectory(name());
        try (EventBus bus = BusBench.open(directory, mode, 1)) {
            SourceDefinition<Long> backlog = bus.source(SequenceSource.of(LongStream.range(0, rows).boxed().toList(),
                    "backlog"), "backlog", seq -> BusBench.Message.of(seq, 0));
            backlog.ingest();
            CountDownLatch drained = new CountDownLatch(rows);
            AtomicLong last = new AtomicLong();
            bus.subscription("s1").handler(BusBench.Message.class, (event, ctx) -> {
                last.set(System.nanoTime());
                drained.countDown();
                return null;
            }).config().concurrency(concurrency);
            long start = System.nanoTime();
            bus.start();
            if (!drained.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the subscription drained " + (rows - drained.getCount()) + " of "
                        + rows);
            }
            long busNanos = last.get() - start;
            bus.stop(Duration.ofSeconds(30));
            long acked = bus.subscription("s1").stats().acked();
            double busRate = ScenarioResult.perSecond(rows, busNanos);
            double workerRate = ScenarioResult.perSecond(rows, workerNanos);
            double sameSizeRate = ScenarioResult.perSecond(rows, sameSizeNanos);
            return ScenarioResult.builder(name(), BusBench.GROUP, mode)
                    .throughput(rows, "deliveries", busNanos)
                    .detail("concurrency", concurrency)
                    .detail("workerDrainPerSecond", workerRate)
                    .detail("ratioToWorkerDrain", busRate / workerRate)
                    .detail("workerSameSizeDrainPerSecond", sameSizeRate)
                    .detail("ratioToSameSizeWorkerDrain", busRate / sameSizeRate)
                    .validation(Validation.check(acked == rows, acked + " acknowledged of " + rows))
                    .build();
        }
    }

    /** Drains a queue of {@code rows} 100-byte jobs with a worker and returns how long it took. */
    private long drainQueue(Path directory, DurabilityMode mode, int rows) throws Exception {
        try (SimpleQueue<BenchMessage> queue = RunContext.openQueue(directory, name(), mode)) {
            RunContext.preload(queue, rows);
            return drain(queue, rows);
        }
    }

    /**
     * Drains a queue of {@code rows} jobs whose stored bytes are as long as the bus's envelopes (an envelope's
     * fields, ids and time around the same payload), read as raw bytes: what the bus adds to a plain queue's claims
     * and settlements beyond the size of its rows.
     */
    private long drainSameSize(Path directory, DurabilityMode mode, int rows) throws Exception {
        try (SimpleQueue<byte[]> queue = SimpleQueue.builder(directory, Serializer.bytes()).name(name())
                .delivery(RunContext.DELIVERY).durability(mode).build()) {
            for (int done = 0; done < rows; done += 1_000) {
                List<io.localqueue.EnqueueItem<byte[]>> items = new java.util.ArrayList<>(1_000);
                for (int i = 0; i < Math.min(1_000, rows - done); i++) {
                    items.add(io.localqueue.EnqueueItem.of(envelopeSized(done + i)));
                }
                queue.putMany(items);
            }
            return drain(queue, rows);
        }
    }

    /**
     * Runs a worker whose handler does nothing on a queue of {@code rows} jobs until all were handled, timed as the
     * bus's drain is: from the start to the last handler's return.
     */
    private <T> long drain(SimpleQueue<T> queue, int rows) throws Exception {
        CountDownLatch drained = new CountDownLatch(rows);
        AtomicLong last = new AtomicLong();
        Worker<T> worker = Worker.builder(queue, job -> {
            last.set(System.nanoTime());
            drained.countDown();
        }).concurrency(concurrency).build();
        long start = System.nanoTime();
        worker.start();
        try {
            if (!drained.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the worker drained " + (rows - drained.getCount()) + " of " + rows);
            }
        } finally {
            worker.stop(Duration.ofSeconds(30));
        }
        return last.get() - start;
    }

    /** Bytes as long as the envelope of a bench event: the same keys, ids, time and payload. */
    private static byte[] envelopeSized(long seq) {
        String id = java.util.UUID.randomUUID().toString();
        BenchMessage message = BenchMessage.of(seq, 0);
        return ("{\"event_id\": \"" + id + "\", \"correlation_id\": \"" + id + "\", \"causation_id\": null, "
                + "\"event_type\": \"bench.message\", \"event_schema\": \"bench.message@1\", "
                + "\"event_created_at\": \"2026-12-01T10:15:30.123456+00:00\", \"payload\": {\"seq\": " + seq
                + ", \"sentNanos\": 0, \"pad\": \"" + message.pad() + "\"}}")
                .getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    @Override
    public List<RawWorkload> baselines() {
        return List.of();
    }
}
