package io.localqueue.internal.store.postgresql;

import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.FailureReason;
import io.localqueue.QueueStats;
import io.localqueue.internal.store.ClaimedRow;
import io.localqueue.internal.store.FailedRow;
import io.localqueue.internal.store.NewJob;
import io.localqueue.internal.store.ReadyRow;
import io.localqueue.internal.store.Settlement;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The lock-free reads on a real PostgreSQL server: counts, the pending check, pages and queue names. */
class ReadStatementsTest extends LayoutTestBase {

    @Test
    void countsPagesAndNamesReflectEveryState() throws SQLException {
        List<Long> ids = put("emails", 5);
        put("sms", 1);
        put("audit", 2);
        List<ClaimedRow> leased = Transactions.run(connection -> ClaimStatements.claim(connection, schema, "emails",
                100, 60_000, 3, false, 0)).rows();
        Transactions.run(connection -> LeaseStatements.settle(connection, schema, List.of(
                Settlement.ack("emails", leased.get(0).id(), leased.get(0).receipt(), 200),
                Settlement.deadLetter("emails", leased.get(1).id(), leased.get(1).receipt(), 300, "bad address",
                        FailureReason.PERMANENT_HANDLER_ERROR, "address")), List.of()));

        QueueStats stats = Transactions.run(connection -> ReadStatements.stats(connection, schema, "emails"));
        List<FailedRow> failed = Transactions.run(connection -> ReadStatements.listFailed(connection, schema,
                "emails", 10, 0));
        List<ReadyRow> ready = Transactions.run(connection -> ReadStatements.listReady(connection, schema, "emails",
                1, 1));

        assertThat(stats).isEqualTo(new QueueStats(2, 1, 1, 1));
        assertThat(failed).singleElement().satisfies(row -> {
            assertThat(row.id()).isEqualTo(leased.get(1).id());
            assertThat(row.lastError()).isEqualTo("bad address");
            assertThat(row.failureReason()).isEqualTo("permanent_handler_error");
            assertThat(row.failureCategory()).isEqualTo("address");
            assertThat(row.updatedAt()).isEqualTo(300);
        });
        assertThat(ready).extracting(ReadyRow::id).containsExactly(ids.get(4));
        List<String> names = Transactions.run(connection -> ReadStatements.queueNames(connection, schema));
        boolean fullAtThree = Transactions.run(connection -> ReadStatements.isFull(connection, schema, "emails", 3));
        boolean fullAtFour = Transactions.run(connection -> ReadStatements.isFull(connection, schema, "emails", 4));
        assertThat(names).containsExactly("audit", "emails", "sms");
        assertThat(fullAtThree).isTrue();
        assertThat(fullAtFour).isFalse();
    }

    private List<Long> put(String queue, int jobs) throws SQLException {
        List<NewJob> batch = new ArrayList<>();
        for (int i = 0; i < jobs; i++) {
            batch.add(new NewJob((queue + " " + i).getBytes(StandardCharsets.UTF_8), null));
        }
        return Transactions.run(connection -> EnqueueStatements.insert(connection, schema, queue, batch, 4, 0, 0))
                .ids();
    }
}
