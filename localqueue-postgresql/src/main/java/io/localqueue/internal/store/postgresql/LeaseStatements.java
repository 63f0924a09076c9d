package io.localqueue.internal.store.postgresql;

import io.localqueue.JobOutcome;
import io.localqueue.internal.store.FencedResults;
import io.localqueue.internal.store.Renewal;
import io.localqueue.internal.store.RowStatus;
import io.localqueue.internal.store.Settlement;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The fenced transitions of a leased row on PostgreSQL. Each matches only the row's current delivery: same queue,
 * still leased, same receipt, lease not yet expired; a row that does not match is a delivery whose lease is gone.
 * Acknowledgements and renewals of a batch go in one statement each, over arrays; the rarer retries, dead letters
 * and hand-backs one by one.
 */
final class LeaseStatements {

    /**
     * The leased state, written as a cast of the column so that the predicate of the index of leased rows
     * ({@code status = 1}) cannot be proven from it: settlements find their rows by id alone. Were the index usable,
     * a generic plan (or one made on stale statistics) would read it whole for each batch, every lease in flight and
     * the dead entries of the rows settled since, which costs more the faster the queue runs.
     */
    private static final String STILL_LEASED = "status::integer = 1";

    private static final String FENCE =
            " WHERE id = ? AND queue = ? AND " + STILL_LEASED + " AND receipt = ? AND lease_until > ?";

    /**
     * Acknowledges a batch. {@code m.id = ANY (…)} of the same ids says nothing that {@code m.id = a.id} does not, but
     * it lets the planner find the batch's rows in one pass through the primary key: without it, the generic plan the
     * server keeps for the prepared statement looks for the rows once per acknowledgement.
     */
    static final String ACK_ALL = """
            UPDATE %1$s.messages AS m
               SET status = 2, receipt = NULL, lease_until = NULL, updated_at = a.now
              FROM unnest(?::bigint[], ?::text[], ?::text[], ?::bigint[]) WITH ORDINALITY
                   AS a (id, queue, receipt, now, position)
             WHERE m.id = ANY (?::bigint[]) AND m.id = a.id AND m.queue = a.queue AND m.receipt = a.receipt
               AND m.lease_until > a.now AND m.""" + STILL_LEASED + " RETURNING a.position";

    /**
     * Acknowledges one delivery, the usual batch of a single consumer: the server plans this short statement in a
     * fraction of the time {@link #ACK_ALL} takes, and keeps one plan for it (by primary key) after its first
     * executions, where it plans {@link #ACK_ALL} afresh at each. Returns a row only when the fence matched.
     */
    static final String ACK_ONE = """
            UPDATE %1$s.messages SET status = 2, receipt = NULL, lease_until = NULL, updated_at = ?""" + FENCE
            + " RETURNING 1";

    /** Renews a batch; {@code m.id = ANY (…)} is there for the reason {@link #ACK_ALL} gives. */
    static final String EXTEND_ALL = """
            UPDATE %1$s.messages AS m
               SET lease_until = r.lease_until, updated_at = r.now
              FROM unnest(?::bigint[], ?::text[], ?::text[], ?::bigint[], ?::bigint[]) WITH ORDINALITY
                   AS r (id, queue, receipt, now, lease_until, position)
             WHERE m.id = ANY (?::bigint[]) AND m.id = r.id AND m.queue = r.queue AND m.receipt = r.receipt
               AND m.lease_until > r.now AND m.""" + STILL_LEASED + " RETURNING r.position";

    /**
     * Back to ready (keeping the due time when there is no delay, so the job keeps its place), or to failed once
     * the delivery budget is spent.
     */
    private static final String NACK = """
            UPDATE %1$s.messages
               SET status = CASE WHEN attempts >= max_attempts THEN 3 ELSE 0 END,
                   available_at = CASE WHEN attempts >= max_attempts THEN ? ELSE COALESCE(?, available_at) END,
                   failure_reason = CASE WHEN attempts >= max_attempts THEN ? ELSE NULL END,
                   last_error = ?, failure_category = NULL, receipt = NULL, lease_until = NULL, updated_at = ?"""
            + FENCE + " RETURNING status";

    static final String FAIL = """
            UPDATE %1$s.messages
               SET status = 3, last_error = ?, failure_reason = ?, failure_category = ?,
                   receipt = NULL, lease_until = NULL, updated_at = ?""" + FENCE;

    /**
     * Hands back a delivery that no handler started: ready again at once, in its old place, and the claim not
     * counted against the job's delivery budget.
     */
    private static final String RELEASE = """
            UPDATE %1$s.messages
               SET status = 0, attempts = greatest(attempts - 1, 0), receipt = NULL, lease_until = NULL,
                   updated_at = ?""" + FENCE;

    private LeaseStatements() {
    }

    static FencedResults settle(Connection connection, String schema, List<Settlement> settlements,
                                List<Renewal> renewals) throws SQLException {
        JobOutcome[] outcomes = new JobOutcome[settlements.size()];
        List<Integer> acks = new ArrayList<>(settlements.size());
        for (int i = 0; i < settlements.size(); i++) {
            Settlement settlement = settlements.get(i);
            if (settlement.kind() == Settlement.Kind.ACK) {
                acks.add(i);
            } else {
                outcomes[i] = settleOne(connection, schema, settlement);
            }
        }
        if (!acks.isEmpty()) {
            Set<Long> acked = acknowledge(connection, schema, settlements, acks);
            for (int position = 0; position < acks.size(); position++) {
                outcomes[acks.get(position)] = acked.contains(position + 1L) ? JobOutcome.ACKED
                        : JobOutcome.DISCARDED;
            }
        }
        return new FencedResults(Arrays.asList(outcomes), renew(connection, schema, renewals));
    }

    /** Acknowledges in one statement; returns the 1-based positions, among {@code acks}, of those that matched. */
    private static Set<Long> acknowledge(Connection connection, String schema, List<Settlement> settlements,
                                         List<Integer> acks) throws SQLException {
        if (acks.size() == 1) {
            Settlement ack = settlements.get(acks.get(0));
            try (PreparedStatement update = connection.prepareStatement(ACK_ONE.formatted(schema))) {
                update.setLong(1, ack.now());
                update.setLong(2, ack.id());
                update.setString(3, ack.queue());
                update.setString(4, ack.receipt());
                update.setLong(5, ack.now());
                return returned(update);
            }
        }
        Long[] ids = new Long[acks.size()];
        String[] queues = new String[acks.size()];
        String[] receipts = new String[acks.size()];
        Long[] times = new Long[acks.size()];
        for (int i = 0; i < acks.size(); i++) {
            Settlement ack = settlements.get(acks.get(i));
            ids[i] = ack.id();
            queues[i] = ack.queue();
            receipts[i] = ack.receipt();
            times[i] = ack.now();
        }
        try (PreparedStatement update = connection.prepareStatement(ACK_ALL.formatted(schema))) {
            Array idArray = connection.createArrayOf("bigint", ids);
            update.setArray(1, idArray);
            update.setArray(2, connection.createArrayOf("text", queues));
            update.setArray(3, connection.createArrayOf("text", receipts));
            update.setArray(4, connection.createArrayOf("bigint", times));
            update.setArray(5, idArray);
            return returned(update);
        }
    }

    private static List<Boolean> renew(Connection connection, String schema, List<Renewal> renewals)
            throws SQLException {
        if (renewals.isEmpty()) {
            return List.of();
        }
        int count = renewals.size();
        Long[] ids = new Long[count];
        String[] queues = new String[count];
        String[] receipts = new String[count];
        Long[] times = new Long[count];
        Long[] leases = new Long[count];
        for (int i = 0; i < count; i++) {
            Renewal renewal = renewals.get(i);
            ids[i] = renewal.id();
            queues[i] = renewal.queue();
            receipts[i] = renewal.receipt();
            times[i] = renewal.now();
            leases[i] = renewal.leaseUntil();
        }
        Set<Long> renewed;
        try (PreparedStatement update = connection.prepareStatement(EXTEND_ALL.formatted(schema))) {
            update.setArray(1, connection.createArrayOf("bigint", ids));
            update.setArray(2, connection.createArrayOf("text", queues));
            update.setArray(3, connection.createArrayOf("text", receipts));
            update.setArray(4, connection.createArrayOf("bigint", times));
            update.setArray(5, connection.createArrayOf("bigint", leases));
            update.setArray(6, connection.createArrayOf("bigint", ids));
            renewed = returned(update);
        }
        List<Boolean> results = new ArrayList<>(count);
        for (int position = 1; position <= count; position++) {
            results.add(renewed.contains((long) position));
        }
        return results;
    }

    /** Reads the positions an array statement returned. */
    private static Set<Long> returned(PreparedStatement update) throws SQLException {
        Set<Long> ids = new HashSet<>();
        try (ResultSet rows = update.executeQuery()) {
            while (rows.next()) {
                ids.add(rows.getLong(1));
            }
        }
        return ids;
    }

    private static JobOutcome settleOne(Connection connection, String schema, Settlement settlement)
            throws SQLException {
        return switch (settlement.kind()) {
            case ACK -> throw new IllegalStateException("acknowledgements are settled in one batch");
            case RETRY -> retry(connection, schema, settlement);
            case DEAD_LETTER -> {
                try (PreparedStatement fail = connection.prepareStatement(FAIL.formatted(schema))) {
                    fail.setString(1, PostgresErrors.storable(settlement.lastError()));
                    fail.setString(2, settlement.requiredReason().value());
                    fail.setString(3, PostgresErrors.storable(settlement.category()));
                    fail.setLong(4, settlement.now());
                    bindFence(fail, 5, settlement);
                    yield fail.executeUpdate() == 1 ? JobOutcome.DEAD_LETTERED : JobOutcome.DISCARDED;
                }
            }
            case RELEASE -> {
                try (PreparedStatement release = connection.prepareStatement(RELEASE.formatted(schema))) {
                    release.setLong(1, settlement.now());
                    bindFence(release, 2, settlement);
                    yield release.executeUpdate() == 1 ? JobOutcome.RETRIED : JobOutcome.DISCARDED;
                }
            }
        };
    }

    private static JobOutcome retry(Connection connection, String schema, Settlement settlement)
            throws SQLException {
        try (PreparedStatement nack = connection.prepareStatement(NACK.formatted(schema))) {
            long now = settlement.now();
            nack.setLong(1, now);
            if (settlement.availableAt() == null) {
                nack.setNull(2, Types.BIGINT);
            } else {
                nack.setLong(2, settlement.availableAt());
            }
            nack.setString(3, settlement.requiredReason().value());
            nack.setString(4, PostgresErrors.storable(settlement.lastError()));
            nack.setLong(5, now);
            bindFence(nack, 6, settlement);
            try (ResultSet status = nack.executeQuery()) {
                if (!status.next()) {
                    return JobOutcome.DISCARDED;
                }
                return status.getInt(1) == RowStatus.FAILED ? JobOutcome.DEAD_LETTERED
                        : JobOutcome.RETRIED;
            }
        }
    }

    private static void bindFence(PreparedStatement statement, int at, Settlement settlement) throws SQLException {
        statement.setLong(at, settlement.id());
        statement.setString(at + 1, settlement.queue());
        statement.setString(at + 2, settlement.receipt());
        statement.setLong(at + 3, settlement.now());
    }
}
