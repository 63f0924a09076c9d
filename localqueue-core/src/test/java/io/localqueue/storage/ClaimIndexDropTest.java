package io.localqueue.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.EnqueueItem;
import io.localqueue.Job;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.QueueTestBase;
import io.localqueue.TestDatabases;
import io.localqueue.SimpleQueue;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Files written by earlier versions of this library carry a fourth index, {@code idx_messages_claim}; opening one
 * drops it, keeps every job, and claims from the reference index in the same order.
 */
@Tag(TestDatabases.FILE_ONLY)
class ClaimIndexDropTest extends QueueTestBase {

    @Test
    void openingAFileWithTheOldClaimIndexDropsItAndLosesNothing() throws SQLException {
        List<Long> ids;
        try (SimpleQueue<Object> queue = SimpleQueue.builder(dir).name("old").build()) {
            ids = queue.putMany(IntStream.range(0, 50).mapToObj(i -> EnqueueItem.<Object>of(i)).toList());
        }
        Path file = dir.resolve(LocalQueueDatabase.FILE_NAME);
        try (Connection connection = RawSqlite.connect(file)) {
            RawSqlite.execute(connection,
                    "CREATE INDEX idx_messages_claim ON messages(queue, status, available_at, id)");
        }
        assertThat(RawSqlite.schema(file)).containsKey("index idx_messages_claim");

        try (SimpleQueue<Object> reopened = SimpleQueue.builder(dir).name("old").build()) {
            assertThat(RawSqlite.schema(file)).doesNotContainKey("index idx_messages_claim")
                    .containsKeys("index idx_messages_queue_status", "index idx_messages_job_id",
                            "index idx_messages_dedup_key");
            List<Long> claimed = new ArrayList<>();
            for (int i = 0; i < ids.size(); i++) {
                Job<Object> job = reopened.getNowait();
                claimed.add(job.id());
                reopened.ack(job);
            }
            assertThat(claimed).containsExactlyElementsOf(ids);
        }
    }
}
