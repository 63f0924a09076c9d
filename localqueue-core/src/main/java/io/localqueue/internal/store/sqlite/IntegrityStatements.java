package io.localqueue.internal.store.sqlite;

import io.localqueue.IntegrityCheckMode;
import io.localqueue.IntegrityCheckResult;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * SQLite's integrity or quick check followed by the foreign-key check; findings (and failures to read the file at
 * all) become the result's messages, never exceptions.
 */
final class IntegrityStatements {

    private IntegrityStatements() {
    }

    static IntegrityCheckResult check(Connection connection, IntegrityCheckMode mode, int maxErrors) {
        long start = System.nanoTime();
        List<String> messages = new ArrayList<>();
        try {
            String pragma = mode == IntegrityCheckMode.FULL ? "integrity_check" : "quick_check";
            collect(connection, "PRAGMA " + pragma + "(" + maxErrors + ")", messages, maxErrors, false);
            messages.remove("ok"); // "ok" on its own means no findings; foreign keys share the budget
            collect(connection, "PRAGMA foreign_key_check", messages, maxErrors, true);
        } catch (SQLException failure) {
            if (messages.size() < maxErrors) {
                messages.add(failure.getMessage());
            }
        }
        return result(mode, maxErrors, messages, start);
    }

    /** A result for a file that could not be read at all. */
    static IntegrityCheckResult unreadable(IntegrityCheckMode mode, int maxErrors, String message, long start) {
        return result(mode, maxErrors, new ArrayList<>(List.of(message)), start);
    }

    private static IntegrityCheckResult result(IntegrityCheckMode mode, int maxErrors, List<String> messages,
                                               long start) {
        if (messages.isEmpty()) {
            messages.add("ok");
        }
        boolean ok = messages.size() == 1 && messages.get(0).equals("ok");
        return new IntegrityCheckResult(IntegrityCheckResult.SCHEMA_VERSION, mode, maxErrors, ok, messages,
                Duration.ofNanos(System.nanoTime() - start));
    }

    private static void collect(Connection connection, String sql, List<String> messages, int maxErrors,
                                boolean foreignKeys) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            while (rows.next() && messages.size() < maxErrors) {
                messages.add(!foreignKeys ? rows.getString(1) : String.format(
                        "foreign key violation: table=%s, rowid=%s, parent=%s, fkid=%s",
                        rows.getString(1), rows.getString(2), rows.getString(3), rows.getString(4)));
            }
        }
    }
}
