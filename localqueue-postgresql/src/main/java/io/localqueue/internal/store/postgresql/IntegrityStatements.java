package io.localqueue.internal.store.postgresql;

import io.localqueue.IntegrityCheckMode;
import io.localqueue.IntegrityCheckResult;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The integrity check of a PostgreSQL layout, a documented subset of what SQLite's checks read: both modes check that
 * every row is in a state the transitions can leave it in (a known status; a lease, and only a lease, with a receipt
 * and an expiry; a dead letter with a reason); {@link IntegrityCheckMode#FULL} also checks the structure of every
 * index of the layout with {@code amcheck}'s {@code bt_index_check} when that extension is installed in the database,
 * and says so when it is not.
 */
final class IntegrityStatements {

    private static final String ROW_FINDINGS = """
            SELECT 'message ' || id || ': ' || CASE
                     WHEN status NOT IN (0, 1, 2, 3) THEN 'unknown status ' || status
                     WHEN status = 1 AND (receipt IS NULL OR lease_until IS NULL) THEN 'leased without a receipt or expiry'
                     WHEN status <> 1 AND (receipt IS NOT NULL OR lease_until IS NOT NULL)
                          THEN 'a receipt or lease outside a lease'
                     ELSE 'a dead letter without a failure reason' END
              FROM %1$s.messages
             WHERE status NOT IN (0, 1, 2, 3)
                OR (status = 1 AND (receipt IS NULL OR lease_until IS NULL))
                OR (status <> 1 AND (receipt IS NOT NULL OR lease_until IS NOT NULL))
                OR (status = 3 AND failure_reason IS NULL)
             ORDER BY id LIMIT ?""";

    private static final String HAS_AMCHECK = "SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'amcheck')";

    private static final String INDEXES = """
            SELECT c.oid::regclass::text FROM pg_index AS i
              JOIN pg_class AS c ON c.oid = i.indexrelid
              JOIN pg_namespace AS n ON n.oid = c.relnamespace
              JOIN pg_am AS a ON a.oid = c.relam
             WHERE n.nspname = ? AND a.amname = 'btree' ORDER BY 1""";

    /** The finding of a full check in a database without {@code amcheck}. */
    static final String NO_AMCHECK = "index structure not checked: the amcheck extension is not installed "
            + "(CREATE EXTENSION amcheck)";

    private IntegrityStatements() {
    }

    static IntegrityCheckResult check(Connection connection, String schema, IntegrityCheckMode mode, int maxErrors)
            throws SQLException {
        long start = System.nanoTime();
        List<String> findings = new ArrayList<>();
        try (PreparedStatement rows = connection.prepareStatement(ROW_FINDINGS.formatted(schema))) {
            rows.setInt(1, maxErrors);
            try (ResultSet found = rows.executeQuery()) {
                while (found.next()) {
                    findings.add(found.getString(1));
                }
            }
        }
        boolean indexesUnchecked = false;
        if (mode == IntegrityCheckMode.FULL && findings.size() < maxErrors) {
            indexesUnchecked = !checkIndexes(connection, schema, maxErrors, findings);
        }
        boolean ok = findings.isEmpty();
        List<String> messages = new ArrayList<>(ok ? List.of("ok") : findings);
        if (indexesUnchecked) {
            messages.add(NO_AMCHECK);
        }
        return new IntegrityCheckResult(IntegrityCheckResult.SCHEMA_VERSION, mode, maxErrors, ok, messages,
                Duration.ofNanos(System.nanoTime() - start));
    }

    /** Checks every B-tree of the layout; false when {@code amcheck} is not there to do it. */
    private static boolean checkIndexes(Connection connection, String schema, int maxErrors, List<String> findings)
            throws SQLException {
        try (PreparedStatement has = connection.prepareStatement(HAS_AMCHECK); ResultSet rows = has.executeQuery()) {
            rows.next();
            if (!rows.getBoolean(1)) {
                return false;
            }
        }
        List<String> indexes = new ArrayList<>();
        try (PreparedStatement list = connection.prepareStatement(INDEXES)) {
            list.setString(1, schema);
            try (ResultSet rows = list.executeQuery()) {
                while (rows.next()) {
                    indexes.add(rows.getString(1));
                }
            }
        }
        for (String index : indexes) {
            if (findings.size() >= maxErrors) {
                break;
            }
            try (PreparedStatement check = connection.prepareStatement("SELECT bt_index_check(?::regclass)")) {
                check.setString(1, index);
                check.execute();
            } catch (SQLException damaged) {
                findings.add("index " + index + ": " + damaged.getMessage());
            }
        }
        return true;
    }
}
