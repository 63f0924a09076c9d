package io.localqueue.internal.store.sqlite;

import io.localqueue.JobOutcome;
import io.localqueue.internal.store.FencedResults;
import io.localqueue.internal.store.Renewal;
import io.localqueue.internal.store.RowStatus;
import io.localqueue.internal.store.Settlement;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The fenced transitions of a leased row. Each matches only the row's current delivery: same queue, still leased,
 * same receipt, lease not yet expired; zero rows matched means the caller's lease is gone.
 */
final class LeaseStatements {

    private static final String FENCE =
            " WHERE id = ? AND queue = ? AND status = 1 AND receipt = ? AND lease_until > ?";

    private static final String ACK =
            "UPDATE messages SET status = 2, receipt = NULL, lease_until = NULL, updated_at = ?" + FENCE;

    /**
     * Back to ready (keeping the due time when there is no delay, so the job keeps its place), or to failed once
     * the delivery budget is spent.
     */
    private static final String NACK = """
            UPDATE messages
               SET status = CASE WHEN attempts >= max_attempts THEN 3 ELSE 0 END,
                   available_at = CASE WHEN attempts >= max_attempts THEN ? ELSE COALESCE(?, available_at) END,
                   failure_reason = CASE WHEN attempts >= max_attempts THEN ? ELSE NULL END,
                   last_error = ?, failure_category = NULL, receipt = NULL, lease_until = NULL, updated_at = ?"""
            + FENCE + " RETURNING status";

    private static final String FAIL = """
            UPDATE messages
               SET status = 3, last_error = ?, failure_reason = ?, failure_category = ?,
                   receipt = NULL, lease_until = NULL, updated_at = ?""" + FENCE;

    private static final String EXTEND = "UPDATE messages SET lease_until = ?, updated_at = ?" + FENCE;

    /**
     * Hands back a delivery that no handler started: ready again at once, in its old place, and the claim not
     * counted against the job's delivery budget.
     */
    private static final String RELEASE = """
            UPDATE messages
               SET status = 0, attempts = MAX(attempts - 1, 0), receipt = NULL, lease_until = NULL, updated_at = ?"""
            + FENCE;

    private LeaseStatements() {
    }

    /** Acknowledgements go in one batched statement; the rarer retries, dead letters and renewals one by one. */
    static FencedResults settle(Session session, List<Settlement> settlements, List<Renewal> renewals)
            throws SQLException {
        JobOutcome[] outcomes = new JobOutcome[settlements.size()];
        List<Settlement> acks = new ArrayList<>(settlements.size());
        int[] ackPositions = new int[settlements.size()];
        for (int i = 0; i < settlements.size(); i++) {
            Settlement settlement = settlements.get(i);
            if (settlement.kind() == Settlement.Kind.ACK) {
                ackPositions[acks.size()] = i;
                acks.add(settlement);
            } else {
                outcomes[i] = settleOne(session, settlement);
            }
        }
        if (!acks.isEmpty()) {
            int[] counts = session.batch(ACK, acks.size(), (statement, index) -> {
                Settlement ack = acks.get(index);
                statement.setLong(1, ack.now());
                bindFence(statement, 2, ack.id(), ack.queue(), ack.receipt(), ack.now());
            });
            for (int i = 0; i < counts.length; i++) {
                outcomes[ackPositions[i]] = counts[i] == 1 ? JobOutcome.ACKED : JobOutcome.DISCARDED;
            }
        }
        List<Boolean> renewed = new ArrayList<>(renewals.size());
        for (Renewal renewal : renewals) {
            renewed.add(renew(session, renewal));
        }
        return new FencedResults(Arrays.asList(outcomes), renewed);
    }

    private static JobOutcome settleOne(Session session, Settlement settlement) throws SQLException {
        return switch (settlement.kind()) {
            case ACK -> throw new IllegalStateException("acknowledgements are settled in one batch");
            case RETRY -> retry(session, settlement);
            case DEAD_LETTER -> fenced(session, FAIL, settlement, statement -> {
                statement.setString(1, settlement.lastError());
                statement.setString(2, settlement.requiredReason().value());
                statement.setString(3, settlement.category());
                statement.setLong(4, settlement.now());
            }, 5) ? JobOutcome.DEAD_LETTERED : JobOutcome.DISCARDED;
            case RELEASE -> fenced(session, RELEASE, settlement, statement -> statement.setLong(1, settlement.now()),
                    2) ? JobOutcome.RETRIED : JobOutcome.DISCARDED;
        };
    }

    private static JobOutcome retry(Session session, Settlement settlement) throws SQLException {
        Long status = session.queryLong(NACK, statement -> {
            long now = settlement.now();
            statement.setLong(1, now);
            if (settlement.availableAt() == null) {
                statement.setNull(2, Types.INTEGER);
            } else {
                statement.setLong(2, settlement.availableAt());
            }
            statement.setString(3, settlement.requiredReason().value());
            statement.setString(4, settlement.lastError());
            statement.setLong(5, now);
            bindFence(statement, 6, settlement.id(), settlement.queue(), settlement.receipt(), now);
        });
        if (status == null) {
            return JobOutcome.DISCARDED;
        }
        return status == RowStatus.FAILED ? JobOutcome.DEAD_LETTERED : JobOutcome.RETRIED;
    }

    private static boolean renew(Session session, Renewal renewal) throws SQLException {
        return session.update(EXTEND, statement -> {
            statement.setLong(1, renewal.leaseUntil());
            statement.setLong(2, renewal.now());
            bindFence(statement, 3, renewal.id(), renewal.queue(), renewal.receipt(), renewal.now());
        }) == 1;
    }

    /** Runs a fenced update whose own parameters come first and whose fence starts at {@code fenceAt}. */
    private static boolean fenced(Session session, String sql, Settlement settlement, Session.Binder own,
                                  int fenceAt) throws SQLException {
        return session.update(sql, statement -> {
            own.bind(statement);
            bindFence(statement, fenceAt, settlement.id(), settlement.queue(), settlement.receipt(),
                    settlement.now());
        }) == 1;
    }

    private static void bindFence(PreparedStatement statement, int at, long id, String queue,
                                  String receipt, long now) throws SQLException {
        statement.setLong(at, id);
        statement.setString(at + 1, queue);
        statement.setString(at + 2, receipt);
        statement.setLong(at + 3, now);
    }
}
