package io.localqueue.internal.store.postgresql;

import static io.localqueue.internal.store.postgresql.Transactions.execute;
import static io.localqueue.internal.store.postgresql.Transactions.query;
import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.FailureReason;
import io.localqueue.internal.store.ClaimedRow;
import io.localqueue.internal.store.DeadLetterRetry;
import io.localqueue.internal.store.NewJob;
import io.localqueue.internal.store.RowStatus;
import io.localqueue.internal.store.Settlement;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Replays and purges on a real PostgreSQL server, with the limit and the executions they must respect. */
class MaintenanceStatementsTest extends LayoutTestBase {

    @Test
    void aDeadLetterIsReplayedWithAFreshBudgetUnlessTheQueueIsFullOrItIsNoDeadLetter() throws SQLException {
        List<Long> dead = deadLetters(2);

        DeadLetterRetry retried = replay("emails", dead.get(0), 2);
        Transactions.run(connection -> EnqueueStatements.insert(connection, schema, "emails",
                List.of(new NewJob(bytes("pending"), null)), 4, 0, 0));
        DeadLetterRetry full = replay("emails", dead.get(1), 2);
        DeadLetterRetry again = replay("emails", dead.get(0), 0);
        DeadLetterRetry otherQueue = replay("sms", dead.get(1), 0);

        assertThat(retried).isEqualTo(DeadLetterRetry.RETRIED);
        assertThat(full).as("two pending jobs at a limit of two").isEqualTo(DeadLetterRetry.QUEUE_FULL);
        assertThat(again).isEqualTo(DeadLetterRetry.NOT_A_DEAD_LETTER);
        assertThat(otherQueue).isEqualTo(DeadLetterRetry.NOT_A_DEAD_LETTER);
        assertThat(query("SELECT status || ' ' || attempts || ' ' || available_at || ' ' || coalesce(last_error, '-') "
                + "FROM " + schema + ".messages WHERE id = " + dead.get(0))).containsExactly("0 0 500 -");
        assertThat(query("SELECT status::text FROM " + schema + ".messages WHERE id = " + dead.get(1)))
                .containsExactly("3");
    }

    private DeadLetterRetry replay(String queue, long id, long limit) throws SQLException {
        return Transactions.run(connection -> MaintenanceStatements.retryFailed(connection, schema, queue, id, 500,
                limit));
    }

    @Test
    void aReplayReopensTheExecutionsThatReportOnItAndPurgesKeepTheirRows() throws SQLException {
        List<Long> dead = deadLetters(3);
        execute("INSERT INTO " + schema + ".event_bus_executions (execution_id, bus_name, source_name, created_at, "
                + "updated_at) VALUES ('e1', 'default', 'users', 1, 1)");
        execute("INSERT INTO " + schema + ".event_bus_execution_runtime (execution_id, bus_name, checkpoint_name, "
                + "source_fingerprint, completed_at) VALUES ('e1', 'default', 'users', 'f', 99)");
        execute("INSERT INTO " + schema + ".event_bus_execution_deliveries VALUES ('e1', " + dead.get(0) + "), ('e1', "
                + dead.get(1) + ")");

        Transactions.run(connection -> MaintenanceStatements.retryFailed(connection, schema, "emails", dead.get(0),
                500, 0));
        int purged = Transactions.run(connection -> MaintenanceStatements.purge(connection, schema, "emails",
                RowStatus.FAILED, 1_000_000));

        assertThat(query("SELECT coalesce(completed_at::text, 'open') FROM " + schema
                + ".event_bus_execution_runtime")).containsExactly("open");
        assertThat(purged).as("only the dead letter no execution reports on").isEqualTo(1);
        assertThat(query("SELECT id::text FROM " + schema + ".messages WHERE status = 3"))
                .containsExactly(String.valueOf(dead.get(1)));
    }

    private List<Long> deadLetters(int count) throws SQLException {
        List<NewJob> jobs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            jobs.add(new NewJob(bytes("job " + i), null));
        }
        Transactions.run(connection -> EnqueueStatements.insert(connection, schema, "emails", jobs, 4, 0, 0));
        List<ClaimedRow> rows = Transactions.run(connection -> ClaimStatements.claim(connection, schema, "emails",
                10, 60_000, count, false, 0)).rows();
        List<Settlement> failures = new ArrayList<>();
        for (ClaimedRow row : rows) {
            failures.add(Settlement.deadLetter("emails", row.id(), row.receipt(), 20, "boom",
                    FailureReason.PERMANENT_HANDLER_ERROR, null));
        }
        Transactions.run(connection -> LeaseStatements.settle(connection, schema, failures, List.of()));
        return rows.stream().map(ClaimedRow::id).toList();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
