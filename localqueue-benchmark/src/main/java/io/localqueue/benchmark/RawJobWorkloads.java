package io.localqueue.benchmark;

import java.sql.SQLException;
import java.util.List;

/**
 * The raw workloads both stores' baselines run the same way on a {@link RawJobs} connection: inserts one or a batch
 * per transaction, a claim and an ack in two transactions, and an insert, claim and ack round trip; each records
 * its measurement and validation into the result.
 */
final class RawJobWorkloads {

    /** Rows per transaction when rows are put ready before a measured loop. */
    static final int PRELOAD_BATCH = 1_000;

    private RawJobWorkloads() {
    }

    static void insert(RawJobs<?> connection, Profile profile, int batch, ScenarioResult.Builder result)
            throws Exception {
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

    static <C> void claimAck(RawJobs<C> connection, Profile profile, ScenarioResult.Builder result)
            throws Exception {
        OperationLoop.Limits limits = profile.limits(profile.getAckOperations());
        preload(connection, limits.warmupOperations() + limits.operations());
        int[] fenced = new int[1];
        OperationLoop.Timing timing = OperationLoop.run(limits, i -> fenced[0] += claimAndAckOne(connection));
        result.measured(timing, 1, "jobs")
                .latency(timing.latencies(), "claim transaction + ack transaction")
                .validation(acknowledged(connection, fenced[0], timing.total()));
    }

    static <C> void putClaimAck(RawJobs<C> connection, Profile profile, ScenarioResult.Builder result)
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

    /** Puts {@code rows} ready rows, {@value #PRELOAD_BATCH} per transaction. */
    static void preload(RawJobs<?> connection, int rows) throws SQLException {
        byte[] payload = BenchMessage.rawPayload();
        for (int done = 0; done < rows; done += PRELOAD_BATCH) {
            connection.begin();
            connection.insertBatch(payload, Math.min(PRELOAD_BATCH, rows - done));
            connection.commit();
        }
    }

    /** Claims one job in one transaction and acknowledges it in another; returns 1 when the ack's fence held. */
    private static <C> int claimAndAckOne(RawJobs<C> connection) throws SQLException {
        connection.begin();
        List<C> rows = connection.claim(1);
        connection.commit();
        if (rows.isEmpty()) {
            throw new IllegalStateException("raw claim found no ready row");
        }
        connection.begin();
        int matched = connection.ack(rows.get(0));
        connection.commit();
        return matched;
    }

    private static Validation acknowledged(RawJobs<?> connection, int fenced, int expected) throws SQLException {
        long acked = connection.count(2);
        return Validation.check(acked == expected && fenced == expected,
                acked + " of " + expected + " rows acknowledged, " + fenced + " fenced acks matched");
    }
}
