package io.localqueue.internal.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.DurabilityMode;
import io.localqueue.internal.store.Enqueued;
import io.localqueue.internal.store.NewJob;
import io.localqueue.internal.store.WriteOptions;
import io.localqueue.storage.RawSqlite;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A batch without job ids gets back the id of each job's own row, in input order, however many rows it has and
 * whatever the file did before: rows deleted at the tail, other queues' rows, and triggers that insert rows of
 * their own while the batch goes in.
 */
class EnqueuedIdsTest extends StoreTestBase {

    private static final long NOW = 1_000_000L;

    @Test
    void eachBatchSizeGetsItsRowsIdsInInputOrder() throws SQLException {
        for (int size : new int[] {2, 3, 31, 32, 33, 100, 511, 512, 513, 1000, 1537}) {
            List<NewJob> jobs = jobs("size-" + size, size);

            List<Long> ids = enqueue("q", jobs);

            assertStoredInOrder(ids, jobs);
        }
    }

    @Test
    void idsFollowInputOrderAfterRowsAtTheTailWereDeletedAndBetweenOtherQueuesRows() throws SQLException {
        enqueue("other", jobs("other", 40));
        try (Connection connection = RawSqlite.connect(store.file())) {
            RawSqlite.execute(connection, "DELETE FROM messages WHERE id > 30");
        }
        List<NewJob> jobs = jobs("after-delete", 1000);

        List<Long> ids = enqueue("q", jobs);

        assertThat(ids.get(0)).as("AUTOINCREMENT never reuses the deleted ids").isGreaterThan(40);
        assertStoredInOrder(ids, jobs);
    }

    @Test
    void aTriggerThatInsertsRowsOfItsOwnDoesNotShiftTheIds() throws SQLException {
        try (Connection connection = RawSqlite.connect(store.file())) {
            RawSqlite.execute(connection, """
                    CREATE TRIGGER echo AFTER INSERT ON messages WHEN NEW.queue = 'q'
                    BEGIN
                        INSERT INTO messages (queue, payload, status, attempts, max_attempts, available_at,
                                              created_at, updated_at)
                        VALUES ('echo', NEW.payload, 0, 0, 1, NEW.available_at, NEW.created_at, NEW.updated_at);
                    END""");
        }
        List<NewJob> jobs = jobs("with-trigger", 1000);

        List<Long> ids = enqueue("q", jobs);

        assertStoredInOrder(ids, jobs);
        assertThat(RawSqlite.query(store.file(), "SELECT COUNT(*) AS n FROM messages WHERE queue = 'echo'"))
                .containsExactly(Map.of("n", 1000L));
    }

    @Test
    void aTemporaryTriggerOfTheCallersConnectionDoesNotShiftTheIds() throws SQLException {
        List<NewJob> jobs = jobs("temp-trigger", 300);
        List<Long> ids;
        try (Connection connection = RawSqlite.connect(store.file())) {
            RawSqlite.execute(connection, """
                    CREATE TEMP TRIGGER echo AFTER INSERT ON main.messages WHEN NEW.queue = 'q'
                    BEGIN
                        INSERT INTO messages (queue, payload, status, attempts, max_attempts, available_at,
                                              created_at, updated_at)
                        VALUES ('echo', NEW.payload, 0, 0, 1, NEW.available_at, NEW.created_at, NEW.updated_at);
                    END""");
            connection.setAutoCommit(false);
            ids = store.writeWithin(connection, writes -> writes.enqueue("q", jobs, 3, NOW, 0)).ids();
            connection.commit();
        }

        assertThat(ids).isNotNull();
        assertStoredInOrder(ids, jobs);
    }

    private List<Long> enqueue(String queue, List<NewJob> jobs) {
        Enqueued enqueued = store.write(WriteOptions.standard("enqueue", DurabilityMode.RELAXED), () -> { },
                writes -> writes.enqueue(queue, jobs, 3, NOW, 0));
        assertThat(enqueued.ids()).isNotNull();
        return enqueued.ids();
    }

    private void assertStoredInOrder(List<Long> ids, List<NewJob> jobs) throws SQLException {
        assertThat(ids).hasSize(jobs.size()).doesNotHaveDuplicates().isSorted();
        Map<Long, String> payloads = new HashMap<>();
        for (Map<String, Object> row : RawSqlite.query(store.file(),
                "SELECT id, CAST(payload AS TEXT) AS payload FROM messages WHERE queue = 'q'")) {
            payloads.put((Long) row.get("id"), (String) row.get("payload"));
        }
        for (int i = 0; i < jobs.size(); i++) {
            assertThat(payloads.get(ids.get(i))).as("job %d", i)
                    .isEqualTo(new String(jobs.get(i).payload(), StandardCharsets.UTF_8));
        }
    }

    private static List<NewJob> jobs(String prefix, int count) {
        List<NewJob> jobs = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            jobs.add(new NewJob(("\"" + prefix + "-" + i + "\"").getBytes(StandardCharsets.UTF_8), null));
        }
        return jobs;
    }
}
