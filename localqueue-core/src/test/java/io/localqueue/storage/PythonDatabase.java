package io.localqueue.storage;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A {@code localqueue.db} as the Python library 1.4 leaves it after some work, observed at {@link #NOW}: rows of
 * queue {@value #QUEUE} in every state, of a second queue {@value #REPORTS}, and of an event-bus subscription queue
 * {@value #BUS} whose deliveries belong to an ingestion execution, with the event-bus tables filled in.
 *
 * <p>Queue {@value #QUEUE} at {@link #NOW}: due ready rows {@value #READY}, {@value #WITH_JOB_ID},
 * {@value #READY_LAST} (put, never claimed) and {@value #NACKED} (nacked without delay 45 s ago); the lease of
 * {@value #EXPIRED_LEASE} ended 4.877 s ago; {@value #LIVE_LEASE} is leased for 50.007 s more; {@value #DELAYED}
 * is due in 10 minutes; {@value #ACKED} is done; and eleven dead letters, one per stored failure reason plus one
 * without a reason (as rows from before reasons existed) and one with a reason this version does not know.
 */
public final class PythonDatabase {

    /** When the test looks at the file: 2025-07-24T23:35:00Z, in epoch milliseconds. */
    public static final long NOW = 1_753_400_100_000L;
    /** {@link #NOW} as an instant. */
    public static final Instant NOW_INSTANT = Instant.ofEpochMilli(NOW);

    public static final String QUEUE = "default";
    public static final String REPORTS = "reports";
    public static final String BUS = "__bus__:default:sub";

    /** The Python default lease. */
    static final long LEASE_MILLIS = 60_000;

    static final long EXPIRED_CLAIM = 1_753_400_035_123L;
    static final long EXPIRED_LEASE_UNTIL = EXPIRED_CLAIM + LEASE_MILLIS;
    static final String EXPIRED_RECEIPT = "12345-1753400035123456789";
    static final long LIVE_CLAIM = 1_753_400_090_007L;
    static final long LIVE_LEASE_UNTIL = LIVE_CLAIM + LEASE_MILLIS;
    static final String LIVE_RECEIPT = "12345-1753400090007000001";

    /** {@code json.dumps({"task": "send-email", "to": "café"})}. */
    static final String EMAIL_JSON = "{\"task\": \"send-email\", \"to\": \"caf\\u00e9\"}";
    static final Map<String, Object> EMAIL = Map.of("task", "send-email", "to", "café");

    public static final String JOB_ID = "order-42";
    static final String EXECUTION_ID = "6f1c2b9e4d3a4f0b8e7d6c5b4a392817";
    static final String OTHER_EXECUTION_ID = "0a1b2c3d4e5f40718293a4b5c6d7e8f9";

    /** Every failure reason string the Python library stores, in {@code FailureReason} order. */
    static final List<String> REASONS = List.of("retries_exhausted", "permanent_handler_error",
            "unknown_event_type", "invalid_envelope", "invalid_payload", "handler_timeout",
            "explicit_permanent_failure", "no_handler", "rejected");

    public static final String READY = "ready";
    public static final String EXPIRED_LEASE = "expired-lease";
    public static final String LIVE_LEASE = "live-lease";
    public static final String ACKED = "acked";
    public static final String DELAYED = "delayed";
    public static final String NACKED = "nacked";
    public static final String WITH_JOB_ID = "with-job-id";
    public static final String FAILED_WITHOUT_REASON = "failed-without-reason";
    public static final String FAILED_UNKNOWN_REASON = "failed-unknown-reason";
    public static final String READY_LAST = "ready-last";
    public static final String REPORTS_WITH_JOB_ID = "reports-with-job-id";
    public static final String REPORTS_ACKED = "reports-acked";
    /** Acked bus delivery held by both executions. */
    static final String BUS_HELD_ACKED = "bus-held-acked";
    /** Acked bus delivery emitted by the handler of {@value #BUS_HELD_ACKED}; no execution holds it. */
    static final String BUS_FREE_ACKED = "bus-free-acked";
    /** Rejected bus delivery held by execution {@value #EXECUTION_ID}. */
    static final String BUS_HELD_FAILED = "bus-held-failed";
    public static final String BUS_READY = "bus-ready";

    private static final long START = NOW - 3_600_000;

    private final Path file;
    private final Map<String, StoredRow> rows;
    private final Map<String, Long> ids;

    private PythonDatabase(Path file, Map<String, StoredRow> rows, Map<String, Long> ids) {
        this.file = file;
        this.rows = rows;
        this.ids = ids;
    }

    /** The label of the dead letter with a stored reason. */
    public static String failed(String reason) {
        return "failed-" + reason;
    }

    /** Creates the file {@code localqueue.db} in {@code directory}. */
    public static PythonDatabase create(Path directory) throws SQLException {
        Path file = directory.resolve("localqueue.db");
        Map<String, StoredRow> rows = rows();
        Map<String, Long> ids = new LinkedHashMap<>();
        try (Connection connection = PythonLayout.V1_4.create(file)) {
            connection.setAutoCommit(false);
            for (Map.Entry<String, StoredRow> row : rows.entrySet()) {
                ids.put(row.getKey(), PythonLayout.V1_4.insert(connection, row.getValue()));
            }
            insertEventBusRecords(connection, ids);
            connection.commit();
        }
        return new PythonDatabase(file, rows, ids);
    }

    public Path file() {
        return file;
    }

    public long id(String label) {
        Long id = ids.get(label);
        if (id == null) {
            throw new IllegalArgumentException("no fixture row " + label);
        }
        return id;
    }

    StoredRow row(String label) {
        StoredRow row = rows.get(label);
        if (row == null) {
            throw new IllegalArgumentException("no fixture row " + label);
        }
        return row;
    }

    /** The label of the row with {@code id}. */
    String label(long id) {
        return ids.entrySet().stream().filter(entry -> entry.getValue() == id).map(Map.Entry::getKey).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no fixture row with id " + id));
    }

    /** The creation time of the k-th row, one second apart, an hour before {@link #NOW}. */
    private static long at(int k) {
        return START + k * 1_000L;
    }

    private static String receipt(long claimedAt) {
        return "12345-" + claimedAt + "000042";
    }

    private static Map<String, StoredRow> rows() {
        Map<String, StoredRow> rows = new LinkedHashMap<>();
        rows.put(READY, StoredRow.put(QUEUE, EMAIL_JSON, at(1)).build());
        rows.put(EXPIRED_LEASE, StoredRow.put(QUEUE, "{\"task\": \"resize\", \"image\": \"\\u00fcber.png\"}", at(2))
                .claimed(EXPIRED_CLAIM, EXPIRED_LEASE_UNTIL, EXPIRED_RECEIPT).build());
        rows.put(LIVE_LEASE, StoredRow.put(QUEUE, "{\"task\": \"send-sms\", \"to\": \"+351\"}", at(3))
                .claimed(at(3) + 10, at(3) + 10 + LEASE_MILLIS, receipt(at(3) + 10))
                .nacked(at(3) + 20, at(3) + 20, "TimeoutError: smtp timed out")
                .claimed(LIVE_CLAIM, LIVE_LEASE_UNTIL, LIVE_RECEIPT).build());
        rows.put(ACKED, StoredRow.put(QUEUE, EMAIL_JSON, at(4))
                .claimed(at(4) + 500, at(4) + 500 + LEASE_MILLIS, receipt(at(4) + 500)).acked(at(4) + 1_500).build());
        rows.put(DELAYED, StoredRow.put(QUEUE, "{\"task\": \"ping\", \"host\": \"example.org\"}", at(5))
                .claimed(NOW - 31_000, NOW - 31_000 + LEASE_MILLIS, receipt(NOW - 31_000))
                .nacked(NOW - 30_000, NOW + 600_000, "ConnectionError: refused").build());
        rows.put(NACKED, StoredRow.put(QUEUE, "{\"task\": \"retry-me\"}", at(6))
                .claimed(NOW - 46_000, NOW - 46_000 + LEASE_MILLIS, receipt(NOW - 46_000))
                .nacked(NOW - 45_000, NOW - 45_000, "ValueError: try again").build());
        rows.put(WITH_JOB_ID, StoredRow.put(QUEUE, "{\"order\": \"42\", \"items\": [\"book\", \"pen\"]}", at(7))
                .jobId(JOB_ID).build());
        int k = 8;
        for (String reason : REASONS) {
            rows.put(failed(reason), deadLetter(k++, reason, reason.equals("rejected") ? "validation" : null));
        }
        rows.put(FAILED_WITHOUT_REASON, deadLetter(k++, null, null));
        rows.put(FAILED_UNKNOWN_REASON, deadLetter(k++, "reason_from_the_future", "future-category"));
        rows.put(READY_LAST, StoredRow.put(QUEUE, "{\"task\": \"cleanup\"}", at(k++)).build());
        rows.put(REPORTS_WITH_JOB_ID, StoredRow.put(REPORTS, "{\"report\": \"daily\"}", at(k++)).jobId(JOB_ID).build());
        long reportsAcked = at(k++);
        rows.put(REPORTS_ACKED, StoredRow.put(REPORTS, "{\"report\": \"weekly\"}", reportsAcked)
                .claimed(reportsAcked + 1, reportsAcked + 1 + LEASE_MILLIS, receipt(reportsAcked + 1))
                .acked(reportsAcked + 2).build());
        rows.put(BUS_HELD_ACKED, busDelivery(at(k++), "user.created", "0b7e7d4e-6a51-4c2e-9d47-2f1f7a3c9e10", 42)
                .acked(NOW - 600_000).build());
        rows.put(BUS_FREE_ACKED, busDelivery(at(k++), "user.welcomed", "5d0c1f7e-2b8a-4e6f-9c3d-7a1b0e9f8d21", 42)
                .acked(NOW - 590_000).build());
        rows.put(BUS_HELD_FAILED, busDelivery(at(k++), "user.created", "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d", 43)
                .failed(NOW - 580_000, "rejected", "validation", "Reject: invalid e-mail address").build());
        rows.put(BUS_READY, StoredRow.put(BUS, envelope("user.created", "3c2b1a09-8f7e-4d6c-b5a4-93827160f5e4", 44),
                at(k)).jobId("3c2b1a09-8f7e-4d6c-b5a4-93827160f5e4")
                .dedup("user.created:44", fingerprint(44)).build());
        return rows;
    }

    private static StoredRow deadLetter(int k, @Nullable String reason, @Nullable String category) {
        long created = at(k);
        StoredRow.Builder row = StoredRow.put(QUEUE, deadLetterJson(reason), created);
        if ("retries_exhausted".equals(reason)) {
            for (int attempt = 1; attempt < StoredRow.PYTHON_DEFAULT_MAX_ATTEMPTS; attempt++) {
                long claim = created + attempt * 100L;
                row.claimed(claim, claim + LEASE_MILLIS, receipt(claim)).nacked(claim + 50, claim + 50,
                        "OSError: disk busy");
            }
        }
        long claim = created + 500;
        return row.claimed(claim, claim + LEASE_MILLIS, receipt(claim))
                .failed(claim + 300, reason, category, "RuntimeError: " + (reason == null ? "no reason" : reason))
                .build();
    }

    /** The payload of the dead letter with {@code reason}: {@code {"reason": "…", "to": "café"}}. */
    private static String deadLetterJson(@Nullable String reason) {
        return "{\"reason\": \"" + (reason == null ? "none" : reason) + "\", \"to\": \"caf\\u00e9\"}";
    }

    private static StoredRow.Builder busDelivery(long at, String type, String eventId, int userId) {
        return StoredRow.put(BUS, envelope(type, eventId, userId), at).jobId(eventId)
                .dedup(type + ":" + userId, fingerprint(userId))
                .claimed(at + 5, at + 5 + LEASE_MILLIS, receipt(at + 5));
    }

    /** The event envelope the Python event bus stores, as {@code json.dumps} spells it. */
    private static String envelope(String type, String eventId, int userId) {
        return "{\"event_type\": \"" + type + "\", \"event_schema\": 1, \"event_id\": \"" + eventId
                + "\", \"correlation_id\": \"" + eventId + "\", \"causation_id\": null, "
                + "\"event_created_at\": \"2025-07-24T22:35:22.123456+00:00\", "
                + "\"payload\": {\"user_id\": " + userId + ", \"name\": \"Jos\\u00e9\"}}";
    }

    private static String fingerprint(int userId) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest(("{\"user_id\": " + userId + "}").getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException impossible) {
            throw new IllegalStateException(impossible);
        }
    }

    private static void insertEventBusRecords(Connection connection, Map<String, Long> ids) throws SQLException {
        long began = at(21);
        long finished = NOW - 570_000;
        update(connection, "INSERT INTO ingestion_checkpoints VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                "default", "users:2025-07", "{\"offset\": 3}", "csv:users.csv:1f2e3d", "c0ffee00c0ffee00c0ffee00c0ffee00",
                2, 3, 1, began, finished);
        for (String execution : List.of(EXECUTION_ID, OTHER_EXECUTION_ID)) {
            String checkpoint = execution.equals(EXECUTION_ID) ? "users:2025-07" : "users:2025-06";
            update(connection, "INSERT INTO event_bus_executions VALUES (?, ?, ?, ?, ?, ?, ?)",
                    execution, "default", "users", checkpoint, 1, began, finished);
            update(connection, """
                    INSERT INTO event_bus_execution_runtime
                    VALUES (?, ?, ?, ?, ?, NULL, NULL, ?, ?, ?, ?, ?, ?, ?, ?)""",
                    execution, "default", checkpoint, "csv:users.csv:1f2e3d", "c0ffee00c0ffee00c0ffee00c0ffee00",
                    finished, finished, 3, 3, 0, 3, 0, 1);
        }
        update(connection, "INSERT INTO event_bus_execution_deliveries VALUES (?, ?)",
                EXECUTION_ID, ids.get(BUS_HELD_ACKED));
        update(connection, "INSERT INTO event_bus_execution_deliveries VALUES (?, ?)",
                EXECUTION_ID, ids.get(BUS_HELD_FAILED));
        update(connection, "INSERT INTO event_bus_execution_deliveries VALUES (?, ?)",
                OTHER_EXECUTION_ID, ids.get(BUS_HELD_ACKED));
        update(connection, "INSERT INTO event_bus_delivery_edges VALUES (?, ?)",
                ids.get(BUS_HELD_ACKED), ids.get(BUS_FREE_ACKED));
    }

    private static void update(Connection connection, String sql, Object... arguments) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < arguments.length; i++) {
                statement.setObject(i + 1, arguments[i]);
            }
            statement.executeUpdate();
        }
    }
}
