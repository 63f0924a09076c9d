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
                case INSERT -> RawJobWorkloads.insert(connection, profile, workload.batch(), result);
                case CLAIM_ACK -> RawJobWorkloads.claimAck(connection, profile, result);
                case PUT_CLAIM_ACK -> RawJobWorkloads.putClaimAck(connection, profile, result);
                case PIPELINE -> pipeline(schema, connection, profile, mode, result);
            }
        }
        return result.build();
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
