package io.localqueue.internal.store.postgresql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.localqueue.FailureReason;
import io.localqueue.JobOutcome;
import io.localqueue.LocalQueueException;
import io.localqueue.internal.store.CheckpointAdvance;
import io.localqueue.internal.store.ClaimRequest;
import io.localqueue.internal.store.ClaimedRow;
import io.localqueue.internal.store.DeadLetterRetry;
import io.localqueue.internal.store.Delivery;
import io.localqueue.internal.store.NewJob;
import io.localqueue.internal.store.QueueWrites;
import io.localqueue.internal.store.Settlement;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The store's transitions through the seam's interface, on one transaction's connection of a real server. */
class PostgresWritesTest extends LayoutTestBase {

    @Test
    void aJobsLifeGoesThroughTheSeam() throws SQLException {
        long id = Transactions.run(c -> new PostgresWrites(c, schema).enqueue("emails",
                List.of(new NewJob(bytes("hi"), "w-1")), 2, 0, 0).ids().get(0));
        ClaimedRow row = Transactions.run(c -> new PostgresWrites(c, schema)
                .claim(new ClaimRequest("emails", 10, 1_000, 5, true, 0)))
                .rows().get(0);
        JobOutcome failed = Transactions.run(c -> new PostgresWrites(c, schema).settle(List.of(
                Settlement.deadLetter("emails", row.id(), row.receipt(), 20, "no", FailureReason.REJECTED, null)),
                List.of())).outcomes().get(0);
        DeadLetterRetry replayed = Transactions.run(c -> new PostgresWrites(c, schema).retryFailed("emails", id, 30,
                0));
        int purged = Transactions.run(c -> new PostgresWrites(c, schema).purge("emails", 1_000, true));

        assertThat(row.id()).isEqualTo(id);
        assertThat(failed).isEqualTo(JobOutcome.DEAD_LETTERED);
        assertThat(replayed).isEqualTo(DeadLetterRetry.RETRIED);
        assertThat(purged).as("the replayed job is pending, not finished").isZero();
    }

    @Test
    void onlyTransitionsThatGiveWaitersWorkOrRoomAskForANotification() throws SQLException {
        List<Boolean> wakes = Transactions.run(c -> {
            PostgresWrites writes = new PostgresWrites(c, schema);
            boolean atStart = writes.wakesWaiters();
            writes.claim(new ClaimRequest("emails", 0, 1_000, 5, true, 0));
            writes.bus().advanceCheckpoint(new CheckpointAdvance("default", "users", null, "1", "f", 1, 1));
            boolean afterClaimAndCheckpoint = writes.wakesWaiters();
            writes.enqueue("emails", List.of(new NewJob(bytes("a"), null)), 2, 0, 0);
            return List.of(atStart, afterClaimAndCheckpoint, writes.wakesWaiters());
        });
        List<Boolean> settled = Transactions.run(c -> {
            PostgresWrites writes = new PostgresWrites(c, schema);
            ClaimedRow row = writes.claim(new ClaimRequest("emails", 10, 1_000, 5, false, 0)).rows().get(0);
            boolean afterClaim = writes.wakesWaiters();
            writes.settle(List.of(Settlement.ack("emails", row.id(), row.receipt(), 20)), List.of());
            return List.of(afterClaim, writes.wakesWaiters());
        });

        assertThat(wakes).containsExactly(false, false, true);
        assertThat(settled).as("an acknowledgement makes room").containsExactly(false, true);
    }

    @Test
    void anEventGoesThroughTheSeamAndFailuresNameTheSchemaAndSqlState() throws SQLException {
        Transactions.run(c -> {
            QueueWrites writes = new PostgresWrites(c, schema);
            writes.bus().createBusTables();
            List<Long> ids = writes.bus().deliver(List.of(new Delivery("__bus__:default:a", bytes("{}"), "e1", 4, null,
                    null), new Delivery("__bus__:default:a", bytes("{}"), "e2", 4, null, null)), 1, 0).ids();
            writes.bus().linkDeliveries(ids.get(0), List.of(ids.get(1)));
            assertThat(writes.bus().advanceCheckpoint(new CheckpointAdvance("default", "users", null, "1", "f", 1, 1))).isNotNull();
            assertThat(writes.bus().checkpoint("default", "users").cursor()).isEqualTo("1");
            return null;
        });

        assertThatThrownBy(() -> Transactions.run(c -> new PostgresWrites(c, "nowhere").enqueue("emails",
                List.of(new NewJob(bytes("x"), null)), 2, 0, 0))).isInstanceOf(LocalQueueException.class)
                .hasMessageStartingWith("writing to schema nowhere failed (SQLSTATE 42P01)")
                .hasMessageContaining("nowhere.messages");
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
