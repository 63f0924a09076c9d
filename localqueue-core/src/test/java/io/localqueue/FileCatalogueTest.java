package io.localqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What can lie where {@code localqueue.db} should be, or become of its directory: each is refused with an error
 * naming the file and the problem, and nothing of it is changed; what is a database after all works.
 */
@Tag(TestDatabases.FILE_ONLY)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FileCatalogueTest extends QueueTestBase {

    private Path file() {
        return dir.resolve(LocalQueueDatabase.FILE_NAME);
    }

    @Test
    void aDirectoryWhereTheFileShouldBeIsRefused() throws IOException {
        Files.createDirectory(file());

        assertThatThrownBy(() -> SimpleQueue.builder(dir).build()).isInstanceOf(LocalQueueException.class)
                .hasMessageContaining(LocalQueueDatabase.FILE_NAME).hasMessageContaining("not a regular file");
        assertThat(file()).isDirectory().isEmptyDirectory();
    }

    @Test
    void aFifoWhereTheFileShouldBeIsRefusedWithoutBlocking() throws Exception {
        assumeTrue(new ProcessBuilder("mkfifo", file().toString()).start().waitFor() == 0, "mkfifo works here");

        assertThatThrownBy(() -> SimpleQueue.builder(dir).build()).isInstanceOf(LocalQueueException.class)
                .hasMessageContaining("not a regular file");
    }

    @Test
    void aDanglingSymlinkIsRefusedAndNotReplacedByAFile() throws IOException {
        Path target = dir.resolve("elsewhere").resolve("gone.db");
        Files.createSymbolicLink(file(), target);

        assertThatThrownBy(() -> SimpleQueue.builder(dir).build()).isInstanceOf(LocalQueueException.class)
                .hasMessageContaining(LocalQueueDatabase.FILE_NAME).hasMessageContaining("symbolic link");
        assertThat(Files.isSymbolicLink(file())).isTrue();
        assertThat(target).doesNotExist();
    }

    @Test
    void aSymlinkToAQueueFileIsFollowed() throws IOException {
        Path real = Files.createDirectory(dir.resolve("real"));
        try (SimpleQueue<String> queue = SimpleQueue.builder(real, String.class).build()) {
            queue.put("stored through the real path");
        }
        Path linked = Files.createDirectory(dir.resolve("linked"));
        Files.createSymbolicLink(linked.resolve(LocalQueueDatabase.FILE_NAME), real.resolve(LocalQueueDatabase.FILE_NAME));

        try (SimpleQueue<String> queue = SimpleQueue.builder(linked, String.class).build()) {
            assertThat(queue.getNowait().data()).isEqualTo("stored through the real path");
        }
    }

    @Test
    void aTruncatedDatabaseIsRefusedAndLeftAsItWas() throws IOException {
        try (SimpleQueue<String> queue = SimpleQueue.builder(dir, String.class).build()) {
            for (int i = 0; i < 200; i++) {
                queue.put("x".repeat(500) + i);
            }
        }
        byte[] whole = Files.readAllBytes(file());
        byte[] truncated = Arrays.copyOf(whole, whole.length / 2 + 17);
        Files.write(file(), truncated);

        assertThatThrownBy(() -> {
            try (SimpleQueue<String> queue = SimpleQueue.builder(dir, String.class).build()) {
                queue.stats();
                queue.checkIntegrity();
                while (true) {
                    queue.ack(queue.getNowait());
                }
            }
        }).isInstanceOf(LocalQueueException.class).hasMessageContaining("SQLITE_CORRUPT");
        assertThat(Files.readAllBytes(file())).isEqualTo(truncated);
    }

    @Test
    void aHeaderAloneIsRefused() throws IOException {
        Files.write(file(), Arrays.copyOf("SQLite format 3\0".getBytes(java.nio.charset.StandardCharsets.US_ASCII), 60));

        assertThatThrownBy(() -> SimpleQueue.builder(dir).build()).isInstanceOf(LocalQueueException.class)
                .hasMessageContaining("not an SQLite database");
        assertThat(Files.size(file())).isEqualTo(60);
    }

    @Test
    void aDirectoryRemovedUnderAnOpenQueueIsReported() throws IOException {
        SimpleQueue<String> queue = open(SimpleQueue.builder(dir.resolve("queue"), String.class));
        queue.put("before");
        for (Path path : Files.list(dir.resolve("queue")).toList()) {
            Files.delete(path);
        }
        Files.delete(dir.resolve("queue"));

        // Writes look at most once a millisecond, so wait that long before the first try.
        await().pollDelay(Duration.ofMillis(5)).atMost(Duration.ofSeconds(5)).untilAsserted(() ->
                assertThatThrownBy(() -> queue.put("after")).isInstanceOf(LocalQueueException.class)
                        .hasMessageContaining("no longer exists").hasMessageContaining("writes stop"));
    }
}
