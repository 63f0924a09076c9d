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

/**
 * The raw JDBC limit of each kind of work on PostgreSQL, measured in the same run and on the same server as the
 * engine: plain connections ({@link RawPostgresConnection}) on a schema whose layout a {@link LocalQueueDatabase}
 * created, the fewest statements for the work, no serialization, no pool, no retries, no notifications. The
 * workloads and their names are the SQLite baseline's ({@link RawWorkload}), so a scenario is compared with the same
 * workload whichever store the run measures. Each workload runs on its own fresh schema with the sizes and warm-up of
 * the scenarios compared with it.
 */
public final class RawPostgresBaseline implements Scenario {

    private static final String QUEUE = "raw";
    private static final int PRELOAD_BATCH = 1_000;
    private static final int PIPELINE_CONSUMER_BATCH = 100;
    private static final int PIPELINE_CONSUMERS = 2;
    private static final long IDLE_PAUSE_NANOS = TimeUnit.MICROSECONDS.toNanos(100);

    private final PostgresBenchStore store;
    private final List<RawWorkload> workloads;

    /**
     * Creates the baseline.
     *
     * @param store the server's store
     * @param workloads the raw workloads to measure, in order
     */
    public RawPostgresBaseline(PostgresBenchStore store, List<RawWorkload> workloads) {
        this.store = store;
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
        String schema = freshSchema(context, workload);
        Profile profile = context.profile();
        ScenarioResult.Builder result = ScenarioResult.builder(workload.name(), RawBaseline.GROUP, mode)
                .detail("synchronousCommit", RawPostgresConnection.synchronousCommit(mode));
        try (RawPostgresConnection connection = RawPostgresConnection.open(store.url(), schema, mode, QUEUE)) {
            switch (workload.kind()) {
                case INSERT -> insert(connection, profile, workload.batch(), result);
                case CLAIM_ACK -> claimAck(connection, profile, result);
                case PUT_CLAIM_ACK -> putClaimAck(connection, profile, result);
                case PIPELINE -> pipeline(schema, connection, profile, mode, result);
            }
        }
        return result.build();
    }

    private static void insert(RawPostgresConnection connection, Profile profile, int batch,
                               ScenarioResult.Builder result) throws Exception {
        byte[] payload = BenchMessage.rawPayload();
        OperationLoop.Limits limits = profile.batchLimits(batch, profile.putManyRowsFor(batch));
        OperationLoop.Timing timing = OperationLoop.run(limits, i -> {
            connection.begin();
            if (batch == 1) {
                connection.insert(payload);
            } else {
                connection.insertBatch(payload, batch);
            }
            connection.commit();
        });
        long expected = (long) timing.total() * batch;
        long ready = connection.count(0);
        result.measured(timing, batch, "rows")
                .latency(timing.latencies(), batch == 1 ? "one insert transaction" : "one batch transaction")
                .detail("rowsPerTransaction", batch)
                .detail("transactionsPerSecond", ScenarioResult.perSecond(timing.count(), timing.elapsedNanos()))
                .validation(Validation.check(ready == expected, ready + " of " + expected + " rows ready"));
    }

    private static void claimAck(RawPostgresConnection connection, Profile profile, ScenarioResult.Builder result)
            throws Exception {
        OperationLoop.Limits limits = profile.limits(profile.getAckOperations());
        preload(connection, limits.warmupOperations() + limits.operations());
        int[] fenced = new int[1];
        OperationLoop.Timing timing = OperationLoop.run(limits, i -> fenced[0] += claimAndAckOne(connection));
        result.measured(timing, 1, "jobs")
                .latency(timing.latencies(), "claim transaction + ack transaction")
                .validation(acknowledged(connection, fenced[0], timing.total()));
    }

    private static void putClaimAck(RawPostgresConnection connection, Profile profile, ScenarioResult.Builder result)
            throws Exception {
        OperationLoop.Limits limits = profile.limits(profile.roundtripOperations());
        byte[] payload = BenchMessage.rawPayload();
        int[] fenced = new int[1];
        OperationLoop.Timing timing = OperationLoop.run(limits, i -> {
            connection.begin();
            connection.insert(payload);
            connection.commit();
            fenced[0] += claimAndAckOne(connection);
        });
        result.measured(timing, 1, "jobs")
                .latency(timing.latencies(), "insert, claim and ack transactions")
                .validation(acknowledged(connection, fenced[0], timing.total()));
    }

    /** Claims one job in one transaction and acknowledges it in another; returns 1 when the ack's fence held. */
    private static int claimAndAckOne(RawPostgresConnection connection) throws SQLException {
        connection.begin();
        List<RawPostgresConnection.Claimed> rows = connection.claim(1);
        connection.commit();
        if (rows.isEmpty()) {
            throw new IllegalStateException("raw claim found no ready row");
        }
        connection.begin();
        int matched = connection.ack(rows.get(0));
        connection.commit();
        return matched;
    }

    private static Validation acknowledged(RawPostgresConnection connection, int fenced, int expected)
            throws SQLException {
        long acked = connection.count(2);
        return Validation.check(acked == expected && fenced == expected,
                acked + " of " + expected + " rows acknowledged, " + fenced + " fenced acks matched");
    }

    private static void preload(RawPostgresConnection connection, int rows) throws SQLException {
        byte[] payload = BenchMessage.rawPayload();
        for (int done = 0; done < rows; done += PRELOAD_BATCH) {
            connection.begin();
            connection.insertBatch(payload, Math.min(PRELOAD_BATCH, rows - done));
            connection.commit();
        }
    }

    /**
     * The batched pipeline, driven like the engine's pipelines by {@link PipelineRun}: its producer inserts
     * {@value PipelineRun#BATCH} rows per transaction on this connection, while {@value #PIPELINE_CONSUMERS}
     * consumer threads, each on its own connection, claim up to {@value #PIPELINE_CONSUMER_BATCH} rows per
     * transaction ({@code FOR UPDATE SKIP LOCKED}, so they take disjoint rows without waiting for each other) and
     * acknowledge them with one statement in a second one. Row ids come from the table's identity, drawn in order by
     * the one producer, so a row's sequence number is its id minus the first id.
     */
    private void pipeline(String schema, RawPostgresConnection connection, Profile profile, DurabilityMode mode,
                          ScenarioResult.Builder result) throws Exception {
        OperationLoop.Limits limits = WorkerPipelineScenario.pipelineLimits(profile);
        AckLedger ledger = PipelineRun.ledger(limits);
        long firstId = connection.maxId() + 1;
        AtomicBoolean stop = new AtomicBoolean();
        byte[] payload = BenchMessage.rawPayload();
        ExecutorService consumers = Executors.newFixedThreadPool(PIPELINE_CONSUMERS);
        PipelineRun.Outcome outcome;
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int i = 0; i < PIPELINE_CONSUMERS; i++) {
                running.add(consumers.submit(() -> consume(schema, mode, firstId, ledger, stop)));
            }
            outcome = PipelineRun.run(batch -> {
                connection.begin();
                connection.insertBatch(payload, batch.size());
                connection.commit();
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

    private Void consume(String schema, DurabilityMode mode, long firstId, AckLedger ledger, AtomicBoolean stop)
            throws SQLException {
        try (RawPostgresConnection connection = RawPostgresConnection.open(store.url(), schema, mode, QUEUE)) {
            while (!stop.get()) {
                connection.begin();
                List<RawPostgresConnection.Claimed> rows = connection.claim(PIPELINE_CONSUMER_BATCH);
                connection.commit();
                if (rows.isEmpty()) {
                    LockSupport.parkNanos(IDLE_PAUSE_NANOS);
                    continue;
                }
                connection.begin();
                int matched = connection.ackBatch(rows);
                connection.commit();
                if (matched != rows.size()) {
                    throw new IllegalStateException("raw batch ack matched " + matched + " of " + rows.size());
                }
                long now = System.nanoTime();
                for (RawPostgresConnection.Claimed row : rows) {
                    ledger.record(row.id() - firstId, 0, now);
                }
            }
        }
        return null;
    }

    /** Creates a fresh schema whose layout a {@link LocalQueueDatabase} creates, and returns its name. */
    private String freshSchema(RunContext context, RawWorkload workload) throws Exception {
        Path directory = context.newDirectory("raw-" + workload.name());
        store.open(directory).close();
        return PostgresBenchStore.schemaOf(directory);
    }
}
