package io.localqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SmokeTest {

    @TempDir
    Path dir;

    @Test
    void putGetAck() {
        try (SimpleQueue<Object> queue = SimpleQueue.builder(dir).build()) {
            long id = queue.put(Map.of("task", "send-email"), "welcome-42");
            assertThat(queue.put(Map.of("other", 1), "welcome-42")).isEqualTo(id);
            Job<Object> job = queue.get(Duration.ofSeconds(1));
            assertThat(job.id()).isEqualTo(id);
            assertThat(job.attempts()).isZero();
            assertThat(job.data()).isEqualTo(Map.of("task", "send-email"));
            queue.ack(job);
            assertThatThrownBy(() -> queue.ack(job)).isInstanceOf(LeaseExpiredException.class);
            assertThat(queue.stats()).isEqualTo(new QueueStats(0, 0, 1, 0));
            assertThatThrownBy(queue::getNowait).isInstanceOf(QueueEmptyException.class);
        }
    }
}
