package io.localqueue.samples.csvimport;

import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.QueueStats;
import io.localqueue.bus.EventBus;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.DefaultApplicationArguments;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * An import run with {@code csv-import.cleanup=true}: once it completed, its execution is deleted, its acknowledged
 * deliveries purged and the queue file vacuumed, so the file is small again; the dead letters and the checkpoint stay,
 * and running the import again imports nothing.
 */
@SpringBootTest(properties = {"csv-import.rows=10000", "csv-import.batch-size=1000", "csv-import.cleanup=true"})
class CsvImportCleanupTest {

    @TempDir
    static Path files;

    @Autowired
    UserImport userImport;

    @Autowired
    EventBus bus;

    @DynamicPropertySource
    static void importFiles(DynamicPropertyRegistry registry) {
        registry.add("localqueue.path", () -> files.resolve("data").toString());
        registry.add("csv-import.file", () -> files.resolve("users.csv").toString());
        registry.add("spring.datasource.url", () -> "jdbc:sqlite:" + files.resolve("users.db")
                + "?busy_timeout=5000&journal_mode=WAL");
    }

    @Test
    void aCompletedImportIsCleanedUpAndTheQueueFileShrinks() throws Exception {
        UsersFile csv = UsersFile.read(files.resolve("users.csv"));
        UserImport.Report report = userImport.report();
        assertThat(report).isNotNull();
        ImportCleanup.Cleaned cleaned = report.cleaned();
        assertThat(cleaned).as("the cleanup's figures").isNotNull();

        assertThat(cleaned.purged()).isEqualTo(csv.validUsers().size());
        assertThat(cleaned.bytesBefore()).as("the file of %d deliveries", csv.distinctUsers())
                .isGreaterThan(5_000_000L);
        assertThat(cleaned.bytesAfter()).as("the file after, of %d bytes before", cleaned.bytesBefore())
                .isLessThan(1_000_000L);
        assertThat(Files.size(files.resolve("data").resolve("localqueue.db"))).isLessThan(1_000_000L);
        QueueStats left = bus.subscription(UserCreationRequested.NAME).stats();
        assertThat(left.acked()).isZero();
        assertThat(left.failed()).as("the dead letters stay").isEqualTo(csv.invalidUsers().size());
        assertThat(bus.executions()).isEmpty();
        assertThat(bus.checkpoint("users:2026-07").inspect()).isPresent();
    }

    @Test
    void runningTheCleanedUpImportAgainImportsNothing() throws Exception {
        UsersFile csv = UsersFile.read(files.resolve("users.csv"));

        userImport.run(new DefaultApplicationArguments());

        assertThat(userImport.getExitCode()).isZero();
        assertThat(bus.subscription(UserCreationRequested.NAME).stats().acked()).isZero();
        assertThat(bus.executions()).isEmpty();
        assertThat(UsersFile.storedUsers(files.resolve("users.db"))).containsExactlyElementsOf(csv.validUsers());
    }
}
