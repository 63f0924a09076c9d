package io.localqueue.internal.store.sqlite;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** Base of the tests that read SQLite's plan of the store's statements on a real file with its schema. */
abstract class QueryPlanTestBase extends StoreTestBase {

    Session session;

    @BeforeEach
    void openSession() throws SQLException {
        session = new SqliteConnector(store.file()).open();
    }

    @AfterEach
    void closeSession() {
        session.close();
    }

    /** The detail column of {@code EXPLAIN QUERY PLAN} for {@code sql} bound to {@code args}, one step per entry. */
    List<String> plan(String sql, Object... args) throws SQLException {
        return session.query("EXPLAIN QUERY PLAN " + sql, statement -> {
            for (int i = 0; i < args.length; i++) {
                statement.setObject(i + 1, args[i]);
            }
        }, rows -> {
            List<String> steps = new ArrayList<>();
            while (rows.next()) {
                steps.add(rows.getString(4));
            }
            return steps;
        });
    }
}
