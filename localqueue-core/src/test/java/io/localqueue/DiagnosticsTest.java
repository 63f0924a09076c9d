package io.localqueue;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link SimpleQueue#diagnostics()}: counts, ages and database facts of one queue, read without writing. */
class DiagnosticsTest extends QueueTestBase {

    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final DeliveryPolicy POLICY = new DeliveryPolicy(LEASE, 3);

    /** The snake_case keys of the reference report (schema version 2), in order. */
    private static final List<String> REFERENCE_KEYS = List.of(
            "schema_version", "package_version", "sqlite_version", "observed_at", "queue_name",
            "serializer_identity", "lease_seconds", "max_retries", "max_pending_jobs", "journal_mode", "synchronous",
            "durability_mode", "busy_timeout_ms", "database_size_bytes", "wal_size_bytes", "shm_size_bytes",
            "page_count", "page_size", "freelist_count", "ready", "processing", "acked", "failed", "pending_jobs",
            "available_slots", "oldest_available_age_seconds", "oldest_processing_updated_age_seconds",
            "active_leases", "expired_leases", "oldest_expired_lease_age_seconds");

    /** The keys this library adds after the reference's, in order. */
    private static final List<String> ADDED_KEYS = List.of("delayed", "next_due_at", "retention_last_run_at",
            "retention_last_deleted", "paused_at", "paused_by", "max_concurrent",
            "max_concurrent_per_key", "rate_limit_permits", "rate_limit_period_seconds", "held_jobs");

    /** What a database server reports as its journal, where a SQLite file reports {@code wal}. */
    private static final String SERVER_JOURNAL_MODE = "postgresql-wal";

    // ---- counts and ages -----------------------------------------------------------------------------------------

    @Test
    void reportsExactCountsAndAgesForRowsInEveryState() {
        SimpleQueue<Object> queue = open(builder -> builder.maxPendingJobs(10));
        for (String name : List.of("acked", "failed", "expired", "active", "delayed")) {
            queue.put(name);
        }
        queue.ack(queue.getNowait());
        queue.fail(queue.getNowait(), "boom");
        Job<Object> expired = queue.getNowait(); // leased at 0 s until 30 s
        Job<Object> active = queue.getNowait();
        queue.nack(queue.getNowait(), Duration.ofHours(1), "later"); // ready again, but only from 3600 s
        clock.advance(Duration.ofSeconds(10));
        queue.put("ready"); // due from 10 s
        clock.advance(Duration.ofSeconds(10));
        queue.extendLease(active, Duration.ofSeconds(60)); // touched at 20 s, leased until 80 s
        clock.advance(Duration.ofSeconds(20)); // now 40 s

        QueueDiagnostics diagnostics = queue.diagnostics();

        assertThat(expired.data()).isEqualTo("expired");
        assertThat(diagnostics.observedAt()).isEqualTo(TestClock.START.plusSeconds(40));
        assertThat(diagnostics.ready()).isEqualTo(2);
        assertThat(diagnostics.processing()).isEqualTo(2);
        assertThat(diagnostics.acked()).isEqualTo(1);
        assertThat(diagnostics.failed()).isEqualTo(1);
        assertThat(diagnostics.pendingJobs()).isEqualTo(4);
        assertThat(diagnostics.availableSlots()).isEqualTo(6L);
        assertThat(diagnostics.oldestAvailableAgeSeconds()).isEqualTo(30.0);
        assertThat(diagnostics.oldestProcessingUpdatedAgeSeconds()).isEqualTo(40.0);
        assertThat(diagnostics.activeLeases()).isEqualTo(1);
        assertThat(diagnostics.expiredLeases()).isEqualTo(1);
        assertThat(diagnostics.oldestExpiredLeaseAgeSeconds()).isEqualTo(10.0);
    }

    @Test
    void emptyQueueReportsZeroCountsAndNoAges() {
        QueueDiagnostics diagnostics = open(UnaryOperator.identity()).diagnostics();

        assertThat(List.of(diagnostics.ready(), diagnostics.processing(), diagnostics.acked(), diagnostics.failed(),
                diagnostics.pendingJobs(), diagnostics.activeLeases(), diagnostics.expiredLeases()))
                .containsOnly(0L);
        assertThat(diagnostics.oldestAvailableAgeSeconds()).isNull();
        assertThat(diagnostics.oldestProcessingUpdatedAgeSeconds()).isNull();
        assertThat(diagnostics.oldestExpiredLeaseAgeSeconds()).isNull();
    }

    @Test
    void delayedReadyJobCountsAsReadyButIsNotAvailableUntilDue() {
        SimpleQueue<Object> queue = open(UnaryOperator.identity());
        queue.put("later");
        queue.nack(queue.getNowait(), Duration.ofMinutes(1), null);

        QueueDiagnostics delayed = queue.diagnostics();
        clock.advance(Duration.ofMinutes(1));
        QueueDiagnostics justDue = queue.diagnostics();
        clock.advance(Duration.ofMillis(2500));
        QueueDiagnostics waiting = queue.diagnostics();

        assertThat(delayed.ready()).isEqualTo(1);
        assertThat(delayed.pendingJobs()).isEqualTo(1);
        assertThat(delayed.oldestAvailableAgeSeconds()).isNull();
        assertThat(justDue.oldestAvailableAgeSeconds()).isEqualTo(0.0);
        assertThat(waiting.oldestAvailableAgeSeconds()).isEqualTo(2.5);
    }

    @Test
    void extendingALeaseResetsTheProcessingAge() {
        SimpleQueue<Object> queue = open(UnaryOperator.identity());
        queue.put("slow");
        Job<Object> job = queue.getNowait();
        clock.advance(Duration.ofSeconds(20));
        QueueDiagnostics beforeExtension = queue.diagnostics();

        queue.extendLease(job, Duration.ofSeconds(30));
        clock.advance(Duration.ofSeconds(5));
        QueueDiagnostics afterExtension = queue.diagnostics();

        assertThat(beforeExtension.oldestProcessingUpdatedAgeSeconds()).isEqualTo(20.0);
        assertThat(afterExtension.oldestProcessingUpdatedAgeSeconds()).isEqualTo(5.0);
        assertThat(afterExtension.activeLeases()).isEqualTo(1);
    }

    @Test
    void expiredLeaseIsReportedAsExpiredFromTheMomentItEnds() {
        SimpleQueue<Object> queue = open(UnaryOperator.identity());
        queue.put("stuck");
        queue.getNowait();

        clock.advance(LEASE.minusMillis(1));
        QueueDiagnostics lastMoment = queue.diagnostics();
        clock.advance(Duration.ofMillis(1));
        QueueDiagnostics atExpiry = queue.diagnostics();
        clock.advance(Duration.ofSeconds(12));
        QueueDiagnostics later = queue.diagnostics();

        assertThat(lastMoment.activeLeases()).isEqualTo(1);
        assertThat(lastMoment.expiredLeases()).isZero();
        assertThat(lastMoment.oldestExpiredLeaseAgeSeconds()).isNull();
        assertThat(atExpiry.activeLeases()).isZero();
        assertThat(atExpiry.expiredLeases()).isEqualTo(1);
        assertThat(atExpiry.oldestExpiredLeaseAgeSeconds()).isEqualTo(0.0);
        assertThat(later.oldestExpiredLeaseAgeSeconds()).isEqualTo(12.0);
        assertThat(later.processing()).isEqualTo(1);
    }

    @Test
    void agesAreNeverNegativeWhenAnotherWriterStampedRowsInTheFuture() {
        TestClock ahead = new TestClock(TestClock.START.plusSeconds(60));
        SimpleQueue<Object> writer = open(SimpleQueue.builder(database()).delivery(POLICY).clock(ahead));
        SimpleQueue<Object> reader = open(UnaryOperator.identity());
        writer.put("claimed");
        writer.put("waiting");
        writer.getNowait(); // touched at 60 s, leased until 90 s

        QueueDiagnostics diagnostics = reader.diagnostics(); // now 0 s

        assertThat(diagnostics.oldestProcessingUpdatedAgeSeconds()).isEqualTo(0.0);
        assertThat(diagnostics.oldestAvailableAgeSeconds()).isNull();
        assertThat(diagnostics.activeLeases()).isEqualTo(1);
        assertThat(diagnostics.ready()).isEqualTo(1);
    }

    @Test
    void countsOnlyTheSelectedQueue() {
        SimpleQueue<Object> emails = open(builder -> builder.name("emails"));
        SimpleQueue<Object> sms = open(builder -> builder.name("sms"));
        sms.put("sms-stuck");
        sms.put("sms-bad");
        sms.put("sms-waiting");
        sms.getNowait();
        clock.advance(Duration.ofSeconds(10));
        emails.put("email-1");
        emails.put("email-2");
        emails.put("email-3");
        emails.ack(emails.getNowait());
        sms.fail(sms.getNowait(), "bad number");
        clock.advance(Duration.ofSeconds(40)); // now 50 s: sms-stuck's lease (taken at 0 s) ended at 30 s

        QueueDiagnostics ofEmails = emails.diagnostics();
        QueueDiagnostics ofSms = sms.diagnostics();

        assertThat(ofEmails.queueName()).isEqualTo("emails");
        assertThat(List.of(ofEmails.ready(), ofEmails.processing(), ofEmails.acked(), ofEmails.failed()))
                .containsExactly(2L, 0L, 1L, 0L);
        assertThat(ofEmails.oldestAvailableAgeSeconds()).isEqualTo(40.0);
        assertThat(ofEmails.expiredLeases()).isZero();
        assertThat(ofEmails.oldestProcessingUpdatedAgeSeconds()).isNull();
        assertThat(ofSms.queueName()).isEqualTo("sms");
        assertThat(List.of(ofSms.ready(), ofSms.processing(), ofSms.acked(), ofSms.failed()))
                .containsExactly(1L, 1L, 0L, 1L);
        assertThat(ofSms.oldestAvailableAgeSeconds()).isEqualTo(50.0);
        assertThat(ofSms.expiredLeases()).isEqualTo(1);
        assertThat(ofSms.oldestExpiredLeaseAgeSeconds()).isEqualTo(20.0);
    }

    @Test
    void availableSlotsIsTheRoomLeftAndNeverNegative() {
        SimpleQueue<Object> unlimited = open(UnaryOperator.identity());
        for (int i = 0; i < 5; i++) {
            unlimited.put("job-" + i);
        }
        SimpleQueue<Object> limitedToSeven = open(builder -> builder.maxPendingJobs(7));
        SimpleQueue<Object> limitedToThree = open(builder -> builder.maxPendingJobs(3));

        assertThat(limitedToSeven.diagnostics().availableSlots()).isEqualTo(2L);
        assertThat(limitedToThree.diagnostics().availableSlots()).isZero();
        assertThat(limitedToThree.diagnostics().pendingJobs()).isEqualTo(5);
    }

    @Test
    void unlimitedQueueReportsNoLimitAndNoSlots() {
        QueueDiagnostics diagnostics = open(UnaryOperator.identity()).diagnostics();

        assertThat(diagnostics.maxPendingJobs()).isNull();
        assertThat(diagnostics.availableSlots()).isNull();
    }

    // ---- settings of the queue object ----------------------------------------------------------------------------

    @Test
    void eachQueueObjectReportsItsOwnLeaseRetriesAndLimit() {
        SimpleQueue<Object> tuned = open(builder -> builder
                .delivery(new DeliveryPolicy(Duration.ofMillis(1500), 7)).maxPendingJobs(5));
        SimpleQueue<Object> plain = open(SimpleQueue.builder(database()));

        QueueDiagnostics ofTuned = tuned.diagnostics();
        QueueDiagnostics ofPlain = plain.diagnostics();

        assertThat(ofTuned.leaseSeconds()).isEqualTo(1.5);
        assertThat(ofTuned.maxRetries()).isEqualTo(7);
        assertThat(ofTuned.maxPendingJobs()).isEqualTo(5L);
        assertThat(ofTuned.availableSlots()).isEqualTo(5L);
        assertThat(ofPlain.leaseSeconds()).isEqualTo(60.0);
        assertThat(ofPlain.maxRetries()).isEqualTo(DeliveryPolicy.DEFAULT_MAX_RETRIES);
        assertThat(ofPlain.maxPendingJobs()).isNull();
    }

    @ParameterizedTest
    @CsvSource({"RELAXED, 1, normal", "DURABLE, 2, full"})
    void durabilityIsReportedAsSynchronousLevelAndMode(DurabilityMode durability, int synchronous, String mode) {
        QueueDiagnostics diagnostics = open(builder -> builder.durability(durability)).diagnostics();

        assertThat(diagnostics.synchronous()).isEqualTo(synchronous);
        assertThat(diagnostics.durabilityMode()).isEqualTo(mode);
    }

    @Test
    void defaultJsonSerializerHasTheSharedIdentity() {
        SimpleQueue<Object> generic = open(UnaryOperator.identity());
        SimpleQueue<String> typed = open(SimpleQueue.builder(database(), String.class).name("typed"));

        assertThat(generic.diagnostics().serializerIdentity()).isEqualTo("localqueue.JsonSerializer");
        assertThat(typed.diagnostics().serializerIdentity()).isEqualTo("localqueue.JsonSerializer");
    }

    @Test
    void customSerializerReportsItsOwnIdentity() {
        Serializer<String> named = new Serializer<>() {
            @Override
            public byte[] serialize(String value) {
                return value.getBytes(UTF_8);
            }

            @Override
            public String deserialize(byte[] bytes) {
                return new String(bytes, UTF_8);
            }

            @Override
            public String identity() {
                return "billing.PlainTextSerializer";
            }
        };
        SimpleQueue<String> custom = open(SimpleQueue.builder(database(), named).name("custom"));
        SimpleQueue<byte[]> raw = open(SimpleQueue.builder(database(), new RawBytesSerializer()).name("raw"));

        assertThat(custom.diagnostics().serializerIdentity()).isEqualTo("billing.PlainTextSerializer");
        assertThat(raw.diagnostics().serializerIdentity()).isEqualTo(RawBytesSerializer.class.getName());
        SimpleQueue<byte[]> bytes = open(SimpleQueue.builder(database(), Serializer.bytes()).name("bytes"));
        byte[] stored = {0, (byte) 0xff, 42};
        bytes.put(stored);
        assertThat(bytes.getNowait().data()).containsExactly(0, (byte) 0xff, 42);
        assertThat(bytes.diagnostics().serializerIdentity()).isEqualTo("localqueue.BytesSerializer");
    }

    // ---- database facts ------------------------------------------------------------------------------------------

    @Test
    void describesTheReportAndTheDatabaseEngine() {
        QueueDiagnostics diagnostics = open(builder -> builder.name("reports")).diagnostics();

        assertThat(diagnostics.schemaVersion()).isEqualTo(2).isEqualTo(QueueDiagnostics.SCHEMA_VERSION);
        assertThat(diagnostics.packageVersion()).isNotBlank();
        assertThat(diagnostics.queueName()).isEqualTo("reports");
        assertThat(diagnostics.sqliteVersion()).isNotBlank().isEqualTo(database().engineVersion());
    }

    @Test
    @Tag(TestDatabases.FILE_ONLY)
    void reportsTheVersionOfTheSqliteLibraryThatOpensTheFile() throws SQLException {
        QueueDiagnostics diagnostics = open(UnaryOperator.identity()).diagnostics();

        assertThat(diagnostics.sqliteVersion()).isEqualTo(RawSqlite.value(dbFile(), "SELECT sqlite_version()"));
    }

    @Test
    void reportsTheVersionOfTheArtifactItRunsFrom() {
        QueueDiagnostics diagnostics = open(builder -> builder.name("versions")).diagnostics();

        assertThat(diagnostics.packageVersion()).isNotEqualTo("development")
                .isEqualTo(System.getProperty("localqueue.test.projectVersion"));
        assertThat(diagnostics.toMap()).containsEntry("package_version", diagnostics.packageVersion());
    }

    @Test
    void describesTheDatabaseThatHoldsTheQueue() {
        SimpleQueue<Object> queue = open(UnaryOperator.identity());
        queue.put("something to store");

        QueueDiagnostics diagnostics = queue.diagnostics();

        assertThat(diagnostics.journalMode()).isNotBlank();
        assertThat(diagnostics.busyTimeoutMs()).isNotNegative();
        assertThat(diagnostics.pageSize()).isPositive();
        assertThat(diagnostics.pageCount()).isNotNegative();
        assertThat(diagnostics.freelistCount()).isNotNegative();
        assertThat(diagnostics.databaseSizeBytes()).isPositive();
    }

    @Test
    @Tag(TestDatabases.FILE_ONLY)
    void describesTheDatabaseFileInWalMode() {
        SimpleQueue<Object> queue = open(UnaryOperator.identity());
        queue.put("something to store");

        QueueDiagnostics diagnostics = queue.diagnostics();

        assertThat(diagnostics.journalMode()).isEqualTo("wal");
        assertThat(diagnostics.busyTimeoutMs()).isEqualTo(5000);
        assertThat(diagnostics.pageSize()).isPositive();
        assertThat(diagnostics.pageCount()).isPositive();
        assertThat(diagnostics.freelistCount()).isNotNegative();
        assertThat(diagnostics.databaseSizeBytes()).isPositive();
        assertThat(diagnostics.walSizeBytes()).isNotNull().isNotNegative();
        assertThat(diagnostics.shmSizeBytes()).isNotNull().isPositive();
    }

    @Test
    void onAServerTheFileFactsAreTheServersCounterparts() {
        assumeFalse(TestDatabases.onFile(), "a file has the facts of its own");
        SimpleQueue<Object> queue = open(UnaryOperator.identity());
        queue.put("something to store");

        QueueDiagnostics diagnostics = queue.diagnostics();

        assertThat(diagnostics.journalMode()).isEqualTo(SERVER_JOURNAL_MODE);
        assertThat(diagnostics.walSizeBytes()).isNull();
        assertThat(diagnostics.shmSizeBytes()).isNull();
        assertThat(diagnostics.freelistCount()).isZero();
        assertThat(diagnostics.toMap()).containsEntry("journal_mode", SERVER_JOURNAL_MODE)
                .containsEntry("wal_size_bytes", null).containsEntry("shm_size_bytes", null);
    }

    @Test
    @Tag(TestDatabases.FILE_ONLY)
    void reportsTheCurrentSizesOfTheDatabaseAndItsSidecars() throws Exception {
        SimpleQueue<Object> queue = open(UnaryOperator.identity());
        queue.put("x".repeat(10_000));

        QueueDiagnostics diagnostics = queue.diagnostics();

        assertThat(diagnostics.walSizeBytes()).isPositive()
                .isEqualTo(Files.size(dir.resolve(LocalQueueDatabase.FILE_NAME + "-wal")));
        assertThat(diagnostics.shmSizeBytes()).isEqualTo(Files.size(dir.resolve(LocalQueueDatabase.FILE_NAME + "-shm")));
        assertThat(diagnostics.databaseSizeBytes()).isEqualTo(Files.size(dbFile()));
    }

    // ---- toMap ---------------------------------------------------------------------------------------------------

    @Test
    void toMapHasTheThirtyReferenceKeysInOrderThenItsOwn() {
        Map<String, Object> map = open(UnaryOperator.identity()).diagnostics().toMap();

        List<String> keys = List.copyOf(map.keySet());
        assertThat(keys.subList(0, REFERENCE_KEYS.size())).containsExactlyElementsOf(REFERENCE_KEYS);
        assertThat(keys.subList(REFERENCE_KEYS.size(), keys.size())).containsExactlyElementsOf(ADDED_KEYS);
    }

    @Test
    void toMapCarriesEveryFieldAsAJsonScalarUnderItsSnakeCaseName() throws Exception {
        SimpleQueue<Object> queue = open(builder -> builder.maxPendingJobs(4));
        queue.put("ready");
        queue.put("leased");
        queue.getNowait();
        clock.advance(Duration.ofMillis(40_250));
        QueueDiagnostics diagnostics = queue.diagnostics();

        Map<String, Object> map = diagnostics.toMap();

        RecordComponent[] components = QueueDiagnostics.class.getRecordComponents();
        assertThat(components).hasSize(REFERENCE_KEYS.size() + ADDED_KEYS.size());
        for (int i = 0; i < components.length; i++) {
            String key = i < REFERENCE_KEYS.size() ? REFERENCE_KEYS.get(i) : ADDED_KEYS.get(i - REFERENCE_KEYS.size());
            assertThat(snakeCase(components[i].getName())).isEqualTo(key);
            Object value = map.get(key);
            assertThat(value).as(key).satisfiesAnyOf(
                    v -> assertThat(v).isNull(),
                    v -> assertThat(v).isInstanceOfAny(String.class, Number.class, Boolean.class));
            if (!List.of("observed_at", "next_due_at", "retention_last_run_at").contains(key)) {
                assertThat(value).as(key).isEqualTo(components[i].getAccessor().invoke(diagnostics));
            }
        }
        assertThat(map.get("observed_at")).isEqualTo(TestClock.START.getEpochSecond() + 40.25);
        assertThat(map.get("available_slots")).isEqualTo(2L);
        assertThat(map.get("journal_mode")).isEqualTo(TestDatabases.onFile() ? "wal" : SERVER_JOURNAL_MODE);
    }

    @Test
    void toMapIsUnmodifiable() {
        Map<String, Object> map = open(UnaryOperator.identity()).diagnostics().toMap();

        assertThatThrownBy(() -> map.put("extra", 1)).isInstanceOf(UnsupportedOperationException.class);
    }

    // ---- read-only -----------------------------------------------------------------------------------------------

    @Test
    void expiredLeaseStaysProcessingBecauseDiagnosticsNeverReclaims() throws SQLException {
        SimpleQueue<Object> queue = open(UnaryOperator.identity());
        queue.put("stuck");
        Job<Object> job = queue.getNowait();
        clock.advance(LEASE.plusSeconds(5));

        queue.diagnostics();
        QueueDiagnostics again = queue.diagnostics();

        assertThat(again.processing()).isEqualTo(1);
        assertThat(again.expiredLeases()).isEqualTo(1);
        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 1, 0, 0));
        try (Connection connection = TestDatabases.connect(dir)) {
            assertThat(RawSqlite.rows(connection, "SELECT status, receipt, attempts FROM messages WHERE id = ?",
                    job.id())).containsExactly(List.of(1, job.receipt(), 1));
        }
    }

    @Test
    void repeatedCallsChangeNoRow() throws SQLException {
        SimpleQueue<Object> queue = queueWithAnExpiredAndAnActiveLease();
        try (Connection observer = TestDatabases.connect(dir)) {
            List<List<Object>> rowsBefore = RawSqlite.rows(observer, "SELECT * FROM messages ORDER BY id");

            for (int i = 0; i < 5; i++) {
                queue.diagnostics();
            }

            assertThat(RawSqlite.rows(observer, "SELECT * FROM messages ORDER BY id")).isEqualTo(rowsBefore);
            queue.put("a real write"); // the observer does see other connections' commits
            assertThat(RawSqlite.rows(observer, "SELECT * FROM messages ORDER BY id")).hasSize(rowsBefore.size() + 1);
        }
    }

    @Test
    @Tag(TestDatabases.FILE_ONLY)
    void repeatedCallsCommitNothingToTheFile() throws SQLException {
        SimpleQueue<Object> queue = queueWithAnExpiredAndAnActiveLease();
        try (Connection observer = RawSqlite.connect(dbFile())) {
            long versionBefore = dataVersion(observer);

            for (int i = 0; i < 5; i++) {
                queue.diagnostics();
            }

            assertThat(dataVersion(observer)).isEqualTo(versionBefore);
            queue.put("a real write"); // the observer does see other connections' commits
            assertThat(dataVersion(observer)).isNotEqualTo(versionBefore);
        }
    }

    @Test
    void closedQueueRefusesDiagnostics() {
        SimpleQueue<Object> queue = open(UnaryOperator.identity());
        queue.close();

        assertThatThrownBy(queue::diagnostics).isInstanceOf(QueueClosedException.class);
    }

    // ---- helpers -------------------------------------------------------------------------------------------------

    private SimpleQueue<Object> open(UnaryOperator<SimpleQueue.Builder<Object>> settings) {
        return open(settings.apply(SimpleQueue.builder(database()).delivery(POLICY).clock(clock)));
    }

    private SimpleQueue<Object> queueWithAnExpiredAndAnActiveLease() {
        SimpleQueue<Object> queue = open(UnaryOperator.identity());
        queue.put("ready");
        queue.put("leased");
        queue.put("expiring");
        queue.getNowait();
        clock.advance(Duration.ofSeconds(20));
        queue.getNowait();
        clock.advance(Duration.ofSeconds(15)); // the first lease has expired, the second has not
        return queue;
    }

    private Path dbFile() {
        return dir.resolve(LocalQueueDatabase.FILE_NAME);
    }

    private static long dataVersion(Connection connection) throws SQLException {
        return ((Number) RawSqlite.rows(connection, "PRAGMA data_version").get(0).get(0)).longValue();
    }

    private static String snakeCase(String camelCase) {
        return camelCase.replaceAll("([A-Z])", "_$1").toLowerCase(Locale.ROOT);
    }
}
