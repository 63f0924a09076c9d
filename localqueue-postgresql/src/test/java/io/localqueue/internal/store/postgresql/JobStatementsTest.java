package io.localqueue.internal.store.postgresql;

import static io.localqueue.internal.store.postgresql.Transactions.execute;
import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.JobCursor;
import io.localqueue.JobState;
import io.localqueue.internal.store.JobPageRequest;
import io.localqueue.internal.store.JobRow;
import io.localqueue.internal.store.RowStatus;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An operator's reads on a real PostgreSQL server where the contract suite does not reach: held jobs in their stored
 * order with their own priority, pages that cross priorities one row at a time, and the deletion of a dead letter an
 * execution reports on.
 */
class JobStatementsTest extends LayoutTestBase {

    private static final long NOW = 100;

    @Test
    void waitingPagesContinueAcrossPrioritiesAndListHeldJobsLastWithTheirOwnPriority() throws SQLException {
        insert("(1, 'emails', 0, 50, 0), (2, 'emails', 0, 90, -1), (3, 'emails', 0, 200, 0), "
                + "(4, 'emails', 0, 10, 10003), (5, 'emails', 0, 300, -1), (6, 'emails', 0, 50, 0), "
                + "(7, 'sms', 0, 1, 0)");

        assertThat(walk(JobState.READY)).extracting(JobRow::id).containsExactly(2L, 1L, 6L, 4L);
        assertThat(walk(JobState.DELAYED)).extracting(JobRow::id).containsExactly(5L, 3L);
        JobRow held = Transactions.run(connection -> JobStatements.job(connection, schema, "emails", 4));
        assertThat(held).isNotNull();
        assertThat(held.storedPriority()).isEqualTo(10003);
        assertThat(held.priority()).isEqualTo(3);
        assertThat(count(JobState.READY, 10)).isEqualTo(4);
        assertThat(count(JobState.READY, 2)).isEqualTo(2);
        assertThat(count(JobState.DELAYED, 10)).isEqualTo(2);
        JobRow foreign = Transactions.run(connection -> JobStatements.job(connection, schema, "emails", 7));
        assertThat(foreign).as("another queue's").isNull();
    }

    @Test
    void aDeadLetterAnExecutionReportsOnIsKept() throws SQLException {
        insert("(1, 'emails', 3, 50, 0), (2, 'emails', 3, 60, 0), (3, 'emails', 0, 70, 0)");
        execute("INSERT INTO " + schema + ".event_bus_executions (execution_id, bus_name, source_name, created_at, "
                + "updated_at) VALUES ('e1', 'default', 'users', 1, 1)");
        execute("INSERT INTO " + schema + ".event_bus_execution_deliveries VALUES ('e1', 1)");

        assertThat(delete(1)).as("an execution reports on it").isFalse();
        assertThat(delete(3)).as("waiting, not dead").isFalse();
        assertThat(delete(2)).isTrue();
        assertThat(walk(JobState.FAILED)).extracting(JobRow::id).containsExactly(1L);
        assertThat(walk(JobState.READY)).extracting(JobRow::id).containsExactly(3L);
    }

    /** Inserts rows given as (id, queue, status, available_at, priority). */
    private void insert(String rows) throws SQLException {
        execute("INSERT INTO " + schema + ".messages (id, queue, status, available_at, priority, payload, "
                + "max_attempts, created_at, updated_at) SELECT v.*, '\\x00'::bytea, 4, 1, 1 FROM (VALUES " + rows
                + ") AS v");
    }

    /** Reads every row of a state one page of one row at a time, each page after the last one's cursor. */
    private List<JobRow> walk(JobState state) throws SQLException {
        List<JobRow> walked = new ArrayList<>();
        JobCursor after = null;
        while (true) {
            JobPageRequest request = new JobPageRequest("emails", state, NOW, after, 1);
            List<JobRow> page = Transactions.run(connection -> JobStatements.page(connection, schema, request));
            if (page.isEmpty()) {
                return walked;
            }
            JobRow last = page.get(0);
            walked.add(last);
            after = new JobCursor(request.inClaimOrder() ? last.storedPriority() : 0,
                    Instant.ofEpochMilli(last.availableAt()), last.id());
        }
    }

    private long count(JobState state, long cap) throws SQLException {
        return Transactions.run(connection -> JobStatements.count(connection, schema, "emails", state, NOW, cap));
    }

    private boolean delete(long id) throws SQLException {
        return Transactions.run(connection -> MaintenanceStatements.deleteOne(connection, schema, "emails", id,
                RowStatus.FAILED));
    }
}
