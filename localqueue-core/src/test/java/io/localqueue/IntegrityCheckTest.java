package io.localqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link SimpleQueue#checkIntegrity}: the store's integrity check as a result, on both stores; on a SQLite file, its
 * integrity or quick check plus the foreign-key check, whose findings the file-only tests provoke.
 */
class IntegrityCheckTest extends QueueTestBase {

    // ---- healthy file --------------------------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(IntegrityCheckMode.class)
    void healthyFilePassesTheCheck(IntegrityCheckMode mode) {
        SimpleQueue<Object> queue = withJobs(20);

        IntegrityCheckResult result = queue.checkIntegrity(mode, 7);

        assertThat(result.schemaVersion()).isEqualTo(1).isEqualTo(IntegrityCheckResult.SCHEMA_VERSION);
        assertThat(result.mode()).isEqualTo(mode);
        assertThat(result.maxErrors()).isEqualTo(7);
        assertThat(result.ok()).isTrue();
        assertThat(result.messages()).first().isEqualTo("ok");
        assertThat(result.elapsed().isNegative()).isFalse();
    }

    @Test
    void defaultCheckIsFullWithABudgetOfOneHundred() {
        IntegrityCheckResult result = withJobs(1).checkIntegrity();

        assertThat(result.mode()).isEqualTo(IntegrityCheckMode.FULL);
        assertThat(result.maxErrors()).isEqualTo(100);
        assertThat(result.ok()).isTrue();
        assertThat(result.messages()).first().isEqualTo("ok");
    }

    @Test
    void modeReportsTheReferenceNames() {
        assertThat(IntegrityCheckMode.FULL.value()).isEqualTo("full");
        assertThat(IntegrityCheckMode.QUICK.value()).isEqualTo("quick");
    }

    // ---- arguments -----------------------------------------------------------------------------------------------

    @ParameterizedTest
    @ValueSource(ints = {Integer.MIN_VALUE, -1, 0, 1001, Integer.MAX_VALUE})
    void maxErrorsOutsideOneToOneThousandIsRefused(int maxErrors) {
        SimpleQueue<Object> queue = withJobs(0);

        assertThatThrownBy(() -> queue.checkIntegrity(IntegrityCheckMode.FULL, maxErrors))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxErrors");
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 1000})
    void maxErrorsAtEitherBoundIsAccepted(int maxErrors) {
        IntegrityCheckResult result = withJobs(0)
                .checkIntegrity(IntegrityCheckMode.QUICK, maxErrors);

        assertThat(result.maxErrors()).isEqualTo(maxErrors);
        assertThat(result.ok()).isTrue();
    }

    @Test
    void nullModeIsRefused() {
        SimpleQueue<Object> queue = withJobs(0);

        assertThatThrownBy(() -> queue.checkIntegrity(null, 10))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("mode");
    }

    @Test
    void closedQueueRefusesTheCheck() {
        SimpleQueue<Object> queue = withJobs(1);
        queue.close();

        assertThatThrownBy(queue::checkIntegrity).isInstanceOf(QueueClosedException.class);
        assertThatThrownBy(() -> queue.checkIntegrity(IntegrityCheckMode.QUICK, 5))
                .isInstanceOf(QueueClosedException.class);
    }

    // ---- foreign keys --------------------------------------------------------------------------------------------

    @Tag(TestDatabases.FILE_ONLY)
    @ParameterizedTest
    @EnumSource(IntegrityCheckMode.class)
    void danglingForeignKeyIsReportedAndFailsTheCheck(IntegrityCheckMode mode) throws SQLException {
        Path queueDir = dir.resolve("queue");
        SimpleQueue<Object> queue = openWithJobs(queueDir, 3);
        addDanglingNotes(queueDir, 1);

        IntegrityCheckResult result = queue.checkIntegrity(mode, 100);

        assertThat(result.ok()).isFalse();
        assertThat(result.messages())
                .containsExactly("foreign key violation: table=job_notes, rowid=1, parent=messages, fkid=0");
    }

    @Tag(TestDatabases.FILE_ONLY)
    @Test
    void foreignKeyViolationsShareTheErrorBudget() throws SQLException {
        Path queueDir = dir.resolve("queue");
        SimpleQueue<Object> queue = openWithJobs(queueDir, 3);
        addDanglingNotes(queueDir, 5);

        IntegrityCheckResult limited = queue.checkIntegrity(IntegrityCheckMode.FULL, 3);
        IntegrityCheckResult single = queue.checkIntegrity(IntegrityCheckMode.QUICK, 1);
        IntegrityCheckResult roomy = queue.checkIntegrity(IntegrityCheckMode.FULL, 10);

        assertThat(limited.messages()).hasSize(3)
                .allSatisfy(message -> assertThat(message).startsWith("foreign key violation: table=job_notes, rowid="));
        assertThat(limited.ok()).isFalse();
        assertThat(single.messages()).hasSize(1);
        assertThat(single.ok()).isFalse();
        assertThat(roomy.messages()).containsExactlyInAnyOrderElementsOf(IntStream.rangeClosed(1, 5)
                .mapToObj(row -> "foreign key violation: table=job_notes, rowid=" + row + ", parent=messages, fkid=0")
                .toList());
    }

    // ---- damaged file --------------------------------------------------------------------------------------------

    @Tag(TestDatabases.FILE_ONLY)
    @ParameterizedTest
    @EnumSource(IntegrityCheckMode.class)
    void damagedFileGivesSqlitesFindingsInsteadOfAnException(IntegrityCheckMode mode) throws Exception {
        SimpleQueue<Object> queue = open(SimpleQueue.builder(DamagedDatabase.create(dir)));

        IntegrityCheckResult result = queue.checkIntegrity(mode, 100);

        assertThat(result.ok()).isFalse();
        assertThat(result.mode()).isEqualTo(mode);
        assertThat(result.messages()).isNotEmpty().hasSizeLessThanOrEqualTo(100).doesNotContain("ok")
                .allSatisfy(message -> assertThat(message).isNotBlank())
                .anySatisfy(message -> assertThat(message.toLowerCase(Locale.ROOT)).contains("page"));
    }

    @Tag(TestDatabases.FILE_ONLY)
    @Test
    void damagedFileFindingsRespectTheErrorBudget() throws Exception {
        SimpleQueue<Object> queue = open(SimpleQueue.builder(DamagedDatabase.create(dir)));

        IntegrityCheckResult result = queue.checkIntegrity(IntegrityCheckMode.FULL, 1);

        assertThat(result.ok()).isFalse();
        assertThat(result.messages()).hasSize(1).doesNotContain("ok");
    }

    // ---- helpers -------------------------------------------------------------------------------------------------

    /** A queue on the store under test with {@code jobs} jobs. */
    private SimpleQueue<Object> withJobs(int jobs) {
        return putJobs(open(SimpleQueue.builder(database())), jobs);
    }

    private SimpleQueue<Object> openWithJobs(Path queueDir, int jobs) {
        return putJobs(open(SimpleQueue.builder(queueDir)), jobs);
    }

    private static SimpleQueue<Object> putJobs(SimpleQueue<Object> queue, int jobs) {
        List<EnqueueItem<Object>> items = new ArrayList<>();
        for (int i = 0; i < jobs; i++) {
            items.add(EnqueueItem.of("job-" + i, "job-id-" + i));
        }
        queue.putMany(items);
        return queue;
    }

    /**
     * Adds a table whose rows point at {@code messages} and inserts rows pointing at ids that do not exist, with
     * foreign-key enforcement off for that connection, as a buggy tool might.
     */
    private static void addDanglingNotes(Path queueDir, int rows) throws SQLException {
        List<String> statements = new ArrayList<>(List.of(
                "PRAGMA foreign_keys = OFF",
                "CREATE TABLE job_notes (id INTEGER PRIMARY KEY, message_id INTEGER NOT NULL REFERENCES messages(id),"
                        + " note TEXT)"));
        for (int row = 1; row <= rows; row++) {
            statements.add("INSERT INTO job_notes (id, message_id, note) VALUES (" + row + ", " + (100_000 + row)
                    + ", 'orphan')");
        }
        RawSqlite.execute(queueDir.resolve(LocalQueueDatabase.FILE_NAME), statements.toArray(String[]::new));
    }
}
