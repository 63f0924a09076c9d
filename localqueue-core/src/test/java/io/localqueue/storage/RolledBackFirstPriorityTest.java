package io.localqueue.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.localqueue.EnqueueOptions;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.QueueTestBase;
import io.localqueue.SimpleQueue;
import io.localqueue.TestDatabases;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A queue's first prioritized put that fails is rolled back whole: the queue stays plain in the file, and its plain
 * jobs are claimed as before.
 */
@Tag(TestDatabases.FILE_ONLY)
class RolledBackFirstPriorityTest extends QueueTestBase {

    @Test
    void aRolledBackFirstPrioritizedPutLeavesThePlainJobsClaimable() throws SQLException {
        try (SimpleQueue<Object> queue = SimpleQueue.builder(dir).name("q").clock(clock).build()) {
            Path file = dir.resolve(LocalQueueDatabase.FILE_NAME);
            try (Connection raw = RawSqlite.connect(file)) {
                RawSqlite.execute(raw, """
                        CREATE TRIGGER refuse_urgent BEFORE INSERT ON messages WHEN NEW.priority < 0
                        BEGIN SELECT RAISE(ABORT, 'refused'); END""");
            }
            assertThatThrownBy(() -> queue.put("urgent", null, EnqueueOptions.defaults().priority(-5)))
                    .hasStackTraceContaining("refused");
            try (Connection raw = RawSqlite.connect(file)) {
                RawSqlite.execute(raw, "DROP TRIGGER refuse_urgent");
                assertThat(RawSqlite.query(raw, "SELECT queue FROM queue_priorities")).isEmpty();
            }

            long plain = queue.put("plain");

            assertThat(queue.getNowait().id()).isEqualTo(plain);
        }
    }
}
