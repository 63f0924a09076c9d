package io.localqueue.benchmark;

import io.localqueue.DurabilityMode;
import io.localqueue.LocalQueueDatabase;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The raw JDBC limit of each kind of work, measured in the same run as the engine: plain connections on a file
 * whose schema a {@link LocalQueueDatabase} created, the same statements the engine needs at minimum, no
 * serialization, no pool, no retries. Each workload runs on its own fresh file with the sizes and warm-up of the
 * scenarios compared with it.
 */
public final class RawBaseline implements Scenario {

    /** The report section of raw results. */
    public static final String GROUP = "raw-jdbc";

    private static final String QUEUE = "raw";
    private static final int PIPELINE_CONSUMER_BATCH = 100;
    private static final int PIPELINE_CONSUMERS = 2;
    private static final long IDLE_PAUSE_NANOS = TimeUnit.MICROSECONDS.toNanos(100);

    private final List<RawWorkload> workloads;

    /**
     * Creates the baseline.
     *
     * @param workloads the raw workloads to measure, in order
     */
    public RawBaseline(List<RawWorkload> workloads) {
        this.workloads = List.copyOf(workloads);
    }

    @Override
    public String name() {
        return "raw";
    }

    @Override
    public List<ScenarioResult> run(RunContext context) throws Exception {
        List<ScenarioResult> results = new ArrayList<>();
        for (DurabilityMode mode : context.modes()) {
            for (RawWorkload workload : workloads) {
                context.progress("raw " + workload.name() + " [" + mode + "]");
                results.add(measure(context, mode, workload));
            }
        }
        return results;
    }

    private ScenarioResult measure(RunContext context, DurabilityMode mode, RawWorkload workload) throws Exception {
        Path file = freshFile(context, workload);
        Profile profile = context.profile();
        ScenarioResult.Builder result = ScenarioResult.builder(workload.name(), GROUP, mode);
        try (RawConnection connection = RawConnection.open(file, mode, QUEUE)) {
            switch (workload.kind()) {
                case INSERT -> RawJobWorkloads.insert(connection, profile, workload.batch(), result);
                case CLAIM_ACK -> RawJobWorkloads.claimAck(connection, profile, result);
                case PUT_CLAIM_ACK -> RawJobWorkloads.putClaimAck(connection, profile, result);
                case PIPELINE -> pipeline(file, connection, profile, mode, result);
            }
        }
        return result.build();
    }

    /**
     * The batched pipeline, driven like the engine's pipelines by {@link PipelineRun}: its producer inserts
     * {@value PipelineRun#BATCH} rows per transaction on this connection, while {@value #PIPELINE_CONSUMERS}
     * consumer threads, each on its own connection, claim up to {@value #PIPELINE_CONSUMER_BATCH} rows per
     * transaction and acknowledge them in a second one. An in-JVM lock around each transaction, as the engine has,
     * keeps the connections from sleeping in SQLite's busy handler. Row ids are consecutive, so a row's sequence
     * number is its id minus the first id.
     */
    private static void pipeline(Path file, RawConnection connection, Profile profile, DurabilityMode mode,
                                 ScenarioResult.Builder result) throws Exception {
        OperationLoop.Limits limits = WorkerPipelineScenario.pipelineLimits(profile);
        AckLedger ledger = PipelineRun.ledger(limits);
        long firstId = connection.maxId() + 1;
        ReentrantLock writeLock = new ReentrantLock();
        AtomicBoolean stop = new AtomicBoolean();
        byte[] payload = BenchMessage.rawPayload();
        ExecutorService consumers = Executors.newFixedThreadPool(PIPELINE_CONSUMERS);
        PipelineRun.Outcome outcome;
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int i = 0; i < PIPELINE_CONSUMERS; i++) {
                running.add(consumers.submit(() -> consume(file, mode, firstId, ledger, writeLock, stop)));
            }
            outcome = PipelineRun.run(batch -> {
                writeLock.lock();
                try {
                    connection.begin();
                    connection.insertBatch(payload, batch.size());
                    connection.commit();
                } finally {
                    writeLock.unlock();
                }
            }, ledger, limits);
            stop.set(true);
            for (Future<?> consumer : running) {
                consumer.get(60, TimeUnit.SECONDS);
            }
        } finally {
            stop.set(true);
            consumers.shutdownNow();
        }
        result.throughput(outcome.jobs(), "jobs", outcome.elapsedNanos())
                .requested(outcome.requested())
                .latency(outcome.latencies(), "insert of the row's batch to its ack")
                .detail("producerRowsPerTransaction", PipelineRun.BATCH)
                .detail("consumers", PIPELINE_CONSUMERS)
                .detail("consumerJobsPerTransaction", PIPELINE_CONSUMER_BATCH)
                .validation(outcome.validation());
    }

    private static Void consume(Path file, DurabilityMode mode, long firstId, AckLedger ledger,
                                ReentrantLock writeLock, AtomicBoolean stop) throws SQLException {
        try (RawConnection connection = RawConnection.open(file, mode, QUEUE)) {
            while (!stop.get()) {
                List<RawConnection.Claimed> rows;
                writeLock.lock();
                try {
                    connection.begin();
                    rows = connection.claim(PIPELINE_CONSUMER_BATCH);
                    connection.commit();
                } finally {
                    writeLock.unlock();
                }
                if (rows.isEmpty()) {
                    LockSupport.parkNanos(IDLE_PAUSE_NANOS);
                    continue;
                }
                int matched;
                writeLock.lock();
                try {
                    connection.begin();
                    matched = connection.ackBatch(rows);
                    connection.commit();
                } finally {
                    writeLock.unlock();
                }
                if (matched != rows.size()) {
                    throw new IllegalStateException("raw batch ack matched " + matched + " of " + rows.size());
                }
                long now = System.nanoTime();
                for (RawConnection.Claimed row : rows) {
                    ledger.record(row.id() - firstId, 0, now);
                }
            }
        }
        return null;
    }

    /** Creates a fresh directory whose schema a {@link LocalQueueDatabase} creates, and returns its file. */
    private static Path freshFile(RunContext context, RawWorkload workload) throws Exception {
        Path directory = context.newDirectory("raw-" + workload.name());
        try (LocalQueueDatabase database = LocalQueueDatabase.open(directory)) {
            return database.file();
        }
    }
}
