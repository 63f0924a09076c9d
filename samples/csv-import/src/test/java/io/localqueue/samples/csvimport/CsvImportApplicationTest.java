package io.localqueue.samples.csvimport;

import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.bus.EventBus;
import io.localqueue.bus.ExecutionResult;
import io.localqueue.bus.FailedDelivery;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The import as the application runs it, on a small generated file in a temporary directory: the context's
 * {@link UserImport} runs while the context starts, so the tests read what it did.
 */
@SpringBootTest(properties = {"csv-import.rows=1500", "csv-import.batch-size=200"})
class CsvImportApplicationTest {

    @TempDir
    static Path files;

    @Autowired
    UserImport userImport;

    @Autowired
    UserApi api;

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
    void createsEveryValidUserOnceAndDeadLettersTheInvalidRows() throws Exception {
        UsersFile csv = UsersFile.read(files.resolve("users.csv"));
        UserImport.Report report = userImport.report();

        assertThat(csv.rows()).as("the generated file").isEqualTo(1500);
        assertThat(csv.distinctUsers()).as("rows repeated in the file").isLessThan(csv.rows());
        assertThat(csv.invalidUsers()).isNotEmpty();
        assertThat(report).as("the import's report").isNotNull();
        ExecutionResult result = report.result();
        assertThat(result.completed()).isTrue();
        assertThat(result.resumed()).isFalse();
        assertThat(result.itemsCommitted()).isEqualTo(csv.rows());
        assertThat(result.deliveriesInserted()).isEqualTo(csv.distinctUsers());
        assertThat(result.deliveriesDeduplicated()).isEqualTo(csv.rows() - csv.distinctUsers());
        assertThat(result.deliveriesAcknowledged()).isEqualTo(csv.validUsers().size());
        assertThat(result.deliveriesFailed()).isEqualTo(csv.invalidUsers().size());

        assertThat(UsersFile.storedUsers(files.resolve("users.db")))
                .containsExactlyElementsOf(csv.validUsers());
        assertThat(report.usersCreated()).isEqualTo(csv.validUsers().size());
        assertThat(api.repeatedRequests()).as("requests for a user created already").isZero();
        assertThat(api.refusals()).as("busy refusals, each retried until the user was created").isPositive();
    }

    @Test
    void invalidRowsAreRejectedDeadLetters() throws Exception {
        UsersFile csv = UsersFile.read(files.resolve("users.csv"));

        List<FailedDelivery> dead = bus.subscription("user.creation-requested").listFailed(1_000, 0);

        assertThat(dead).extracting(letter -> ((UserCreationRequested) letter.event()).externalId())
                .containsExactlyInAnyOrderElementsOf(csv.invalidUsers());
        assertThat(dead).allSatisfy(letter -> {
            assertThat(letter.reason().value()).isEqualTo("rejected");
            assertThat(letter.failureCategory()).isEqualTo("invalid_email");
            assertThat(letter.attempts()).isEqualTo(1);
            assertThat(letter.lastError()).startsWith("invalid email");
        });
    }
}
