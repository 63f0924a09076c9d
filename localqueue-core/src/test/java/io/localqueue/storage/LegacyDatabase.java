package io.localqueue.storage;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@code localqueue.db} as the Python library 1.0 leaves it, observed at {@link #NOW}: the 1.0 layout (no
 * failure reason, failure category or event identity columns, no {@code idx_messages_dedup_key}) with rows of queue
 * {@value #QUEUE} in every state and one row of queue {@value #REPORTS}.
 */
public final class LegacyDatabase {

    /** When the test looks at the file, in epoch milliseconds. */
    public static final long NOW = PythonDatabase.NOW;

    public static final String QUEUE = "default";
    public static final String REPORTS = "reports";
    public static final String JOB_ID = "invoice-7";

    /** The columns of {@code messages} in 1.0, in their order. */
    public static final List<String> COLUMNS = List.of("id", "queue", "payload", "status", "attempts",
            "max_attempts", "available_at", "lease_until", "receipt", "last_error", "job_id", "created_at",
            "updated_at");

    public static final String READY = "ready";
    public static final String EXPIRED_LEASE = "expired-lease";
    public static final String ACKED = "acked";
    public static final String DELAYED = "delayed";
    public static final String FAILED = "failed";
    public static final String EXHAUSTED = "exhausted";
    public static final String WITH_JOB_ID = "with-job-id";
    public static final String REPORTS_READY = "reports-ready";

    /** Receipt of the expired lease, as 1.0 wrote it: pid and nanoseconds. */
    public static final String EXPIRED_RECEIPT = "4242-1753400010000000007";

    private final Path file;
    private final Map<String, Long> ids;

    private LegacyDatabase(Path file, Map<String, Long> ids) {
        this.file = file;
        this.ids = ids;
    }

    /** Creates the file {@code localqueue.db} in {@code directory}. */
    public static LegacyDatabase create(Path directory) throws SQLException {
        Path file = directory.resolve("localqueue.db");
        Map<String, Long> ids = new LinkedHashMap<>();
        try (Connection connection = PythonLayout.V1_0.create(file)) {
            connection.setAutoCommit(false);
            for (Map.Entry<String, StoredRow> row : rows().entrySet()) {
                ids.put(row.getKey(), PythonLayout.V1_0.insert(connection, row.getValue()));
            }
            connection.commit();
        }
        return new LegacyDatabase(file, ids);
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

    private static Map<String, StoredRow> rows() {
        long start = NOW - 86_400_000;
        Map<String, StoredRow> rows = new LinkedHashMap<>();
        rows.put(READY, StoredRow.put(QUEUE, "{\"n\": 1, \"text\": \"na\\u00efve\"}", start + 1_000).build());
        rows.put(EXPIRED_LEASE, StoredRow.put(QUEUE, "{\"n\": 2}", start + 2_000)
                .claimed(NOW - 70_000, NOW - 10_000, EXPIRED_RECEIPT).build());
        rows.put(ACKED, StoredRow.put(QUEUE, "{\"n\": 3}", start + 3_000)
                .claimed(start + 3_100, start + 63_100, "4242-1753313603100000000").acked(start + 3_200).build());
        rows.put(DELAYED, StoredRow.put(QUEUE, "{\"n\": 4}", start + 4_000)
                .claimed(start + 4_100, start + 64_100, "4242-1753313604100000000")
                .nacked(start + 4_200, NOW + 3_600_000, "ConnectionError: later").build());
        rows.put(FAILED, StoredRow.put(QUEUE, "{\"n\": 5}", start + 5_000)
                .claimed(start + 5_100, start + 65_100, "4242-1753313605100000000")
                .failed(start + 5_200, null, null, "ValueError: bad input").build());
        StoredRow.Builder exhausted = StoredRow.put(QUEUE, "{\"n\": 6}", start + 6_000);
        for (int attempt = 1; attempt <= StoredRow.PYTHON_DEFAULT_MAX_ATTEMPTS; attempt++) {
            long claim = start + 6_000 + attempt * 100L;
            exhausted.claimed(claim, claim + 60_000, "4242-" + claim + "000000");
            if (attempt < StoredRow.PYTHON_DEFAULT_MAX_ATTEMPTS) {
                exhausted.nacked(claim + 10, claim + 10, "OSError: flaky");
            }
        }
        rows.put(EXHAUSTED, exhausted.failed(start + 7_000, null, null, "OSError: flaky").build());
        rows.put(WITH_JOB_ID, StoredRow.put(QUEUE, "{\"n\": 7}", start + 7_000).jobId(JOB_ID).build());
        rows.put(REPORTS_READY, StoredRow.put(REPORTS, "{\"n\": 8}", start + 8_000).jobId(JOB_ID).build());
        return rows;
    }
}
