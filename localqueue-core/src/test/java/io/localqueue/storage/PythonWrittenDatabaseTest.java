package io.localqueue.storage;

import static io.localqueue.storage.PythonDatabase.ACKED;
import static io.localqueue.storage.PythonDatabase.BUS;
import static io.localqueue.storage.PythonDatabase.BUS_FREE_ACKED;
import static io.localqueue.storage.PythonDatabase.BUS_HELD_ACKED;
import static io.localqueue.storage.PythonDatabase.BUS_HELD_FAILED;
import static io.localqueue.storage.PythonDatabase.BUS_READY;
import static io.localqueue.storage.PythonDatabase.DELAYED;
import static io.localqueue.storage.PythonDatabase.EMAIL;
import static io.localqueue.storage.PythonDatabase.EXECUTION_ID;
import static io.localqueue.storage.PythonDatabase.EXPIRED_LEASE;
import static io.localqueue.storage.PythonDatabase.EXPIRED_LEASE_UNTIL;
import static io.localqueue.storage.PythonDatabase.EXPIRED_RECEIPT;
import static io.localqueue.storage.PythonDatabase.FAILED_UNKNOWN_REASON;
import static io.localqueue.storage.PythonDatabase.FAILED_WITHOUT_REASON;
import static io.localqueue.storage.PythonDatabase.JOB_ID;
import static io.localqueue.storage.PythonDatabase.LIVE_LEASE;
import static io.localqueue.storage.PythonDatabase.LIVE_LEASE_UNTIL;
import static io.localqueue.storage.PythonDatabase.LIVE_RECEIPT;
import static io.localqueue.storage.PythonDatabase.NACKED;
import static io.localqueue.storage.PythonDatabase.NOW;
import static io.localqueue.storage.PythonDatabase.OTHER_EXECUTION_ID;
import static io.localqueue.storage.PythonDatabase.QUEUE;
import static io.localqueue.storage.PythonDatabase.READY;
import static io.localqueue.storage.PythonDatabase.READY_LAST;
import static io.localqueue.storage.PythonDatabase.REPORTS;
import static io.localqueue.storage.PythonDatabase.REPORTS_WITH_JOB_ID;
import static io.localqueue.storage.PythonDatabase.WITH_JOB_ID;
import static io.localqueue.storage.PythonDatabase.failed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import io.localqueue.DueJobs;
import io.localqueue.FailedMessage;
import io.localqueue.FailureReason;
import io.localqueue.ForeignJobs;
import io.localqueue.IntegrityCheckResult;
import io.localqueue.Job;
import io.localqueue.LeaseExpiredException;
import io.localqueue.QueueDiagnostics;
import io.localqueue.QueueStats;
import io.localqueue.QueueTestBase;
import io.localqueue.TestDatabases;
import io.localqueue.SimpleQueue;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A file written by the Python library 1.4 (see {@link PythonDatabase}) opened and worked by this library with its
 * clock at the moment the fixture describes.
 */
@Tag(TestDatabases.FILE_ONLY)
class PythonWrittenDatabaseTest extends QueueTestBase {

    private final Map<String, SimpleQueue<Object>> queues = new HashMap<>();
    private PythonDatabase python;
    private Map<String, List<Map<String, Object>>> before;

    PythonWrittenDatabaseTest() {
        super(PythonDatabase.NOW_INSTANT);
    }

    @BeforeEach
    void writeThePythonFile() throws SQLException {
        python = PythonDatabase.create(dir);
        before = RawSqlite.tables(python.file());
    }

    @Test
    void openingRewritesNoRowOfAnyTable() throws Exception {
        Map<String, String> schemaBefore = RawSqlite.schema(python.file());
        for (String name : List.of(QUEUE, REPORTS, BUS)) {
            queue(name).stats();
        }
        closeOpened();

        Map<String, List<Map<String, Object>>> after = new LinkedHashMap<>(
                RawSqlite.tablesWithoutAdditions(python.file()));
        assertThat(after).isEqualTo(before);
        assertThat(RawSqlite.schemaWithoutAdditions(python.file())).as("the Python schema objects, kept as they were")
                .isEqualTo(schemaBefore);
        assertThat(RawSqlite.schema(python.file()).keySet()).as("objects added on open")
                .containsExactlyInAnyOrderElementsOf(union(schemaBefore.keySet(), RawSqlite.ADDED_SCHEMA_OBJECTS));
        assertThat(RawSqlite.pragma(python.file(), "journal_mode")).isEqualTo("wal");
        assertThat(RawSqlite.pragma(python.file(), "user_version")).isEqualTo(0L);
    }

    @Test
    void statsCountEachQueuesRows() {
        assertThat(queue(QUEUE).stats()).isEqualTo(new QueueStats(5, 2, 1, 11));
        assertThat(queue(REPORTS).stats()).isEqualTo(new QueueStats(1, 0, 1, 0));
        assertThat(queue(BUS).stats()).isEqualTo(new QueueStats(1, 0, 2, 1));
        assertThat(queue("never-used").stats()).isEqualTo(new QueueStats(0, 0, 0, 0));
    }

    @Test
    void dueJobsAreClaimedByDueTimeThenIdAndNothingElse() throws SQLException {
        SimpleQueue<Object> queue = queue(QUEUE);

        List<Long> claimed = drain(queue);

        // The Python library would take NACKED (nacked 45 s ago) third, by id; this library orders by due time.
        assertThat(claimed).containsExactly(python.id(READY), python.id(EXPIRED_LEASE), python.id(WITH_JOB_ID),
                python.id(READY_LAST), python.id(NACKED));
        assertMessagesUnchangedExcept(claimed);
    }

    @Test
    void claimedPythonRowsDecodeToTheirPayloads() {
        SimpleQueue<Object> queue = queue(QUEUE);

        Job<Object> first = queue.getNowait();
        Job<Object> second = queue.getNowait();
        Job<Object> third = queue.getNowait();

        assertThat(first.data()).isEqualTo(EMAIL);
        assertThat(second.data()).isEqualTo(Map.of("task", "resize", "image", "über.png"));
        assertThat(third.data()).isEqualTo(Map.of("order", "42", "items", List.of("book", "pen")));
    }

    @Test
    void expiredPythonLeaseIsRedeliveredWithItsAttemptsIncremented() throws SQLException {
        SimpleQueue<Object> queue = queue(QUEUE);
        long id = python.id(EXPIRED_LEASE);
        Map<String, Object> stored = storedBefore(id);
        queue.getNowait();

        Job<Object> job = queue.getNowait();

        assertThat(job.id()).isEqualTo(id);
        assertThat(job.attempts()).as("zero-based: the Python delivery was the first").isEqualTo(1);
        assertThat(job.receipt()).isNotEqualTo(EXPIRED_RECEIPT);
        assertThat(job.leaseExpiresAt()).isEqualTo(Instant.ofEpochMilli(NOW + 60_000));
        Map<String, Object> expected = new LinkedHashMap<>(stored);
        expected.put("attempts", 2L);
        expected.put("lease_until", NOW + 60_000);
        expected.put("receipt", job.receipt());
        expected.put("updated_at", NOW);
        assertThat(RawSqlite.message(python.file(), id)).isEqualTo(expected);
    }

    @Test
    void receiptOfTheExpiredPythonLeaseCannotSettleTheRedelivery() {
        SimpleQueue<Object> queue = queue(QUEUE);
        long id = python.id(EXPIRED_LEASE);
        queue.getNowait();
        Job<Object> redelivered = queue.getNowait();
        assertThat(redelivered.id()).isEqualTo(id);

        assertThatThrownBy(() -> queue.ack(ForeignJobs.of(queue, id, EXPIRED_RECEIPT)))
                .isInstanceOf(LeaseExpiredException.class);
        queue.ack(redelivered);
        assertThat(queue.stats()).isEqualTo(new QueueStats(4, 2, 2, 11));
    }

    @Test
    void reclaimMovesOnlyTheExpiredPythonLeaseBackToReady() throws SQLException {
        SimpleQueue<Object> queue = queue(QUEUE);
        long id = python.id(EXPIRED_LEASE);

        assertThat(queue.reclaimExpiredLeases()).isEqualTo(1);

        assertOnlyThisRowLeftItsLease(id, 0L);
    }

    @Test
    void livePythonLeaseIsNotClaimable() throws SQLException {
        SimpleQueue<Object> queue = queue(QUEUE);

        assertThat(drain(queue)).doesNotContain(python.id(LIVE_LEASE), python.id(DELAYED));
        assertThat(RawSqlite.message(python.file(), python.id(LIVE_LEASE))).isEqualTo(
                storedBefore(python.id(LIVE_LEASE)));
    }

    @Test
    void livePythonLeaseCannotBeSettledWithAnotherReceipt() throws SQLException {
        SimpleQueue<Object> queue = queue(QUEUE);
        long id = python.id(LIVE_LEASE);

        for (String wrong : List.of("12345-1753400090007000002", EXPIRED_RECEIPT, "")) {
            assertThatThrownBy(() -> queue.ack(ForeignJobs.of(queue, id, wrong))).as("receipt '%s'", wrong)
                    .isInstanceOf(LeaseExpiredException.class);
            assertThatThrownBy(() -> queue.fail(ForeignJobs.of(queue, id, wrong))).as("receipt '%s'", wrong)
                    .isInstanceOf(LeaseExpiredException.class);
        }
        assertThatThrownBy(() -> queue(REPORTS).ack(ForeignJobs.of(queue(REPORTS), id, LIVE_RECEIPT)))
                .as("the right receipt through another queue").isInstanceOf(LeaseExpiredException.class);
        assertMessagesUnchangedExcept(List.of());
    }

    @Test
    void livePythonLeaseIsAckedWithItsStoredReceipt() throws SQLException {
        SimpleQueue<Object> queue = queue(QUEUE);
        long id = python.id(LIVE_LEASE);

        queue.ack(ForeignJobs.of(queue, id, LIVE_RECEIPT));

        assertOnlyThisRowLeftItsLease(id, 2L);
    }

    @Test
    void livePythonLeaseCanBeExtendedWithItsStoredReceipt() throws SQLException {
        SimpleQueue<Object> queue = queue(QUEUE);
        long id = python.id(LIVE_LEASE);
        clock.advance(Duration.ofSeconds(50));

        queue.extendLease(ForeignJobs.of(queue, id, LIVE_RECEIPT), Duration.ofSeconds(60));

        assertThat(RawSqlite.message(python.file(), id)).contains(entry("lease_until", NOW + 110_000),
                entry("updated_at", NOW + 50_000), entry("receipt", LIVE_RECEIPT), entry("status", 1L));
        clock.advance(Duration.ofSeconds(1));
        assertThat(LIVE_LEASE_UNTIL).isLessThan(clock.millis());
        assertThat(drain(queue)).doesNotContain(id);
    }

    @Test
    void puttingAStoredJobIdReturnsTheStoredRowAndChangesNothing() throws SQLException {
        assertThat(queue(QUEUE).put(Map.of("order", "43"), JOB_ID)).isEqualTo(python.id(WITH_JOB_ID));
        assertThat(queue(REPORTS).put(Map.of("report", "monthly"), JOB_ID)).isEqualTo(
                python.id(REPORTS_WITH_JOB_ID));
        assertThat(queue(BUS).put("duplicate event", python.row(BUS_READY).jobId())).isEqualTo(python.id(BUS_READY));
        assertThat(queue(BUS).put("redelivered event", python.row(BUS_HELD_ACKED).jobId()))
                .as("a job id of an acked row").isEqualTo(python.id(BUS_HELD_ACKED));

        // SQLite advances sqlite_sequence even for an ignored insert, with Python's INSERT OR IGNORE as well.
        Map<String, List<Map<String, Object>>> after = new LinkedHashMap<>(
                RawSqlite.tablesWithoutAdditions(python.file()));
        Map<String, List<Map<String, Object>>> expected = new LinkedHashMap<>(before);
        after.remove("sqlite_sequence");
        expected.remove("sqlite_sequence");
        assertThat(after).isEqualTo(expected);
    }

    @Test
    void newJobsGetIdsAfterThePythonRows() throws SQLException {
        long lastPythonId = (Long) before.get("sqlite_sequence").get(0).get("seq");

        long id = queue(QUEUE).put(EMAIL, "order-44");

        assertThat(id).isEqualTo(lastPythonId + 1);
        assertMessagesUnchangedExcept(List.of(id));
    }

    @Test
    void listFailedDecodesEveryPythonDeadLetterAndMapsItsReason() {
        Map<String, FailureReason> reasons = new LinkedHashMap<>();
        reasons.put(failed("retries_exhausted"), FailureReason.RETRIES_EXHAUSTED);
        reasons.put(failed("permanent_handler_error"), FailureReason.PERMANENT_HANDLER_ERROR);
        reasons.put(failed("unknown_event_type"), FailureReason.UNKNOWN_EVENT_TYPE);
        reasons.put(failed("invalid_envelope"), FailureReason.INVALID_ENVELOPE);
        reasons.put(failed("invalid_payload"), FailureReason.INVALID_PAYLOAD);
        reasons.put(failed("handler_timeout"), FailureReason.HANDLER_TIMEOUT);
        reasons.put(failed("explicit_permanent_failure"), FailureReason.EXPLICIT_PERMANENT_FAILURE);
        reasons.put(failed("no_handler"), FailureReason.NO_HANDLER);
        reasons.put(failed("rejected"), FailureReason.REJECTED);
        reasons.put(FAILED_WITHOUT_REASON, FailureReason.LEGACY_UNKNOWN);
        reasons.put(FAILED_UNKNOWN_REASON, FailureReason.LEGACY_UNKNOWN);

        List<FailedMessage<Object>> failed = queue(QUEUE).listFailed();

        assertThat(failed).extracting(FailedMessage::id)
                .containsExactlyElementsOf(reasons.keySet().stream().map(python::id).toList());
        assertThat(failed).extracting(FailedMessage::reason).containsExactlyElementsOf(reasons.values());
        for (FailedMessage<Object> message : failed) {
            StoredRow row = rowWithId(message.id());
            assertThat(message.decoded()).as("decoded %s", message).isTrue();
            assertThat(message.data()).isEqualTo(Map.of("reason", row.failureReason() == null ? "none"
                    : row.failureReason(), "to", "café"));
            assertThat(message.rawPayload()).isEqualTo(row.payload());
            assertThat(message.attempts()).isEqualTo(row.attempts());
            assertThat(message.lastError()).isEqualTo(row.lastError());
            assertThat(message.failureCategory()).isEqualTo(row.failureCategory());
            assertThat(message.createdAt()).isEqualTo(Instant.ofEpochMilli(row.createdAt()));
            assertThat(message.updatedAt()).isEqualTo(Instant.ofEpochMilli(row.updatedAt()));
        }
        assertThat(failed.get(0).attempts()).as("raw claims of retries_exhausted").isEqualTo(4);
        assertThat(failed.get(8).failureCategory()).isEqualTo("validation");
    }

    @Test
    void listFailedOfTheBusQueueDecodesTheEventEnvelope() {
        List<FailedMessage<Object>> failed = queue(BUS).listFailed();

        assertThat(failed).singleElement().satisfies(message -> {
            assertThat(message.id()).isEqualTo(python.id(BUS_HELD_FAILED));
            assertThat(message.reason()).isEqualTo(FailureReason.REJECTED);
            assertThat(message.failureCategory()).isEqualTo("validation");
            assertThat(message.data()).asInstanceOf(InstanceOfAssertFactories.MAP)
                    .containsEntry("event_type", "user.created").containsEntry("causation_id", null)
                    .containsEntry("payload", Map.of("user_id", 43, "name", "José"));
        });
    }

    @Test
    void retryFailedMakesAPythonDeadLetterReadyWithAFreshBudget() throws SQLException {
        SimpleQueue<Object> queue = queue(QUEUE);
        long id = python.id(FAILED_WITHOUT_REASON);

        queue.retryFailed(id);

        Map<String, Object> expected = new LinkedHashMap<>(storedBefore(id));
        expected.putAll(Map.of("status", 0L, "attempts", 0L, "available_at", NOW, "updated_at", NOW));
        expected.put("last_error", null);
        expected.put("failure_reason", null);
        expected.put("failure_category", null);
        assertThat(RawSqlite.message(python.file(), id)).isEqualTo(expected);
        assertMessagesUnchangedExcept(List.of(id));
        List<Long> claimed = drain(queue);
        assertThat(claimed).last().as("due now, after every job due earlier").isEqualTo(id);
        assertThat(queue.listFailed()).extracting(FailedMessage::id).doesNotContain(id).hasSize(10);
    }

    @Test
    void retryFailedReopensOnlyTheEventBusExecutionThatHoldsTheDelivery() throws SQLException {
        queue(BUS).retryFailed(python.id(BUS_HELD_FAILED));

        List<Map<String, Object>> runtimes = RawSqlite.tables(python.file()).get("event_bus_execution_runtime");
        List<Map<String, Object>> runtimesBefore = before.get("event_bus_execution_runtime");
        assertThat(runtimes).hasSize(2);
        for (int i = 0; i < runtimes.size(); i++) {
            Map<String, Object> expected = new LinkedHashMap<>(runtimesBefore.get(i));
            if (EXECUTION_ID.equals(expected.get("execution_id"))) {
                expected.put("completed_at", null);
            } else {
                assertThat(expected).containsEntry("execution_id", OTHER_EXECUTION_ID);
            }
            assertThat(runtimes.get(i)).isEqualTo(expected);
        }
        assertThat(queue(BUS).stats()).isEqualTo(new QueueStats(2, 0, 2, 0));
    }

    @Test
    void purgeKeepsEveryMessageAnEventBusExecutionHolds() throws SQLException {
        SimpleQueue<Object> bus = queue(BUS);

        assertThat(bus.purge(Duration.ofMinutes(1), true)).isEqualTo(1);

        assertThat(messageIds()).doesNotContain(python.id(BUS_FREE_ACKED))
                .contains(python.id(BUS_HELD_ACKED), python.id(BUS_HELD_FAILED), python.id(BUS_READY));
        Map<String, List<Map<String, Object>>> after = RawSqlite.tables(python.file());
        assertThat(after.get("event_bus_execution_deliveries")).isEqualTo(before.get("event_bus_execution_deliveries"));
        assertThat(after.get("event_bus_delivery_edges")).as("edge to the purged child, deleted by its cascade")
                .isEmpty();
        assertThat(bus.stats()).isEqualTo(new QueueStats(1, 0, 1, 1));
        assertThat(bus.checkIntegrity().ok()).isTrue();
    }

    @Test
    void deletingAMessageAnExecutionHoldsViolatesTheForeignKey() throws SQLException {
        try (Connection connection = RawSqlite.connect(python.file())) {
            assertThatThrownBy(() -> RawSqlite.execute(connection,
                    "DELETE FROM messages WHERE id = " + python.id(BUS_HELD_ACKED)))
                    .isInstanceOf(SQLException.class).hasMessageContaining("FOREIGN KEY constraint failed");
        }
    }

    @Test
    void purgeDeletesOldSettledPythonRowsOfItsOwnQueueOnly() throws SQLException {
        SimpleQueue<Object> queue = queue(QUEUE);

        assertThat(queue.purge(Duration.ofMinutes(1))).as("acked").isEqualTo(1);
        assertThat(queue.purge(Duration.ofMinutes(1), true)).as("dead letters").isEqualTo(11);

        assertThat(queue.stats()).isEqualTo(new QueueStats(5, 2, 0, 0));
        assertThat(queue(REPORTS).stats()).isEqualTo(new QueueStats(1, 0, 1, 0));
        assertThat(messageIds()).doesNotContain(python.id(ACKED), python.id(FAILED_WITHOUT_REASON));
    }

    @Test
    void integrityCheckOfThePythonFileIsOk() {
        IntegrityCheckResult result = queue(QUEUE).checkIntegrity();

        assertThat(result.ok()).isTrue();
        assertThat(result.messages()).containsExactly("ok");
    }

    @Test
    void diagnosticsCountThePythonRowsWithoutWriting() throws SQLException {
        QueueDiagnostics diagnostics = queue(QUEUE).diagnostics();

        assertThat(diagnostics.observedAt()).isEqualTo(PythonDatabase.NOW_INSTANT);
        assertThat(diagnostics.queueName()).isEqualTo(QUEUE);
        assertThat(diagnostics.journalMode()).isEqualTo("wal");
        assertThat(List.of(diagnostics.ready(), diagnostics.processing(), diagnostics.acked(), diagnostics.failed(),
                diagnostics.pendingJobs(), diagnostics.activeLeases(), diagnostics.expiredLeases()))
                .containsExactly(5L, 2L, 1L, 11L, 7L, 1L, 1L);
        assertThat(diagnostics.oldestAvailableAgeSeconds()).as("READY, put an hour ago less one second")
                .isEqualTo(3599.0);
        assertThat(diagnostics.oldestProcessingUpdatedAgeSeconds()).as("claim of EXPIRED_LEASE")
                .isEqualTo((NOW - PythonDatabase.EXPIRED_CLAIM) / 1000.0);
        assertThat(diagnostics.oldestExpiredLeaseAgeSeconds()).isEqualTo((NOW - EXPIRED_LEASE_UNTIL) / 1000.0);
        assertThat(queue(BUS).diagnostics()).satisfies(bus -> assertThat(List.of(bus.ready(), bus.processing(),
                bus.acked(), bus.failed())).containsExactly(1L, 0L, 2L, 1L));
        assertMessagesUnchangedExcept(List.of());
    }

    private SimpleQueue<Object> queue(String name) {
        return queues.computeIfAbsent(name, key -> open(SimpleQueue.builder(dir).name(key).clock(clock)));
    }

    /** Claims until the queue has nothing due and returns the ids in claim order. */
    private static List<Long> drain(SimpleQueue<Object> queue) {
        return DueJobs.claimAll(queue).stream().map(Job::id).toList();
    }

    private Map<String, Object> storedBefore(long id) {
        return before.get("messages").stream().filter(row -> row.get("id").equals(id)).findFirst().orElseThrow();
    }

    private StoredRow rowWithId(long id) {
        return python.row(python.label(id));
    }

    private Set<Long> messageIds() throws SQLException {
        return RawSqlite.query(python.file(), "SELECT id FROM messages").stream()
                .map(row -> (Long) row.get("id")).collect(Collectors.toSet());
    }

    /**
     * The row of {@code id} holds what the Python library wrote but for {@code status}, no lease or receipt and an
     * update at {@code NOW}; every other messages row is unchanged.
     */
    private void assertOnlyThisRowLeftItsLease(long id, long status) throws SQLException {
        Map<String, Object> expected = new LinkedHashMap<>(storedBefore(id));
        expected.put("status", status);
        expected.put("lease_until", null);
        expected.put("receipt", null);
        expected.put("updated_at", NOW);
        assertThat(RawSqlite.message(python.file(), id)).isEqualTo(expected);
        assertMessagesUnchangedExcept(List.of(id));
    }

    /** Every messages row other than {@code ids} still holds exactly what the Python library wrote. */
    private void assertMessagesUnchangedExcept(List<Long> ids) throws SQLException {
        List<Map<String, Object>> now = RawSqlite.tables(python.file()).get("messages").stream()
                .filter(row -> !ids.contains((Long) row.get("id"))).toList();
        List<Map<String, Object>> then = before.get("messages").stream()
                .filter(row -> !ids.contains((Long) row.get("id"))).toList();
        assertThat(now).isEqualTo(then);
    }

    private static Set<String> union(Set<String> names, List<String> added) {
        Set<String> all = new LinkedHashSet<>(names);
        all.addAll(added);
        return all;
    }
}
