package io.localqueue.internal.store.postgresql;

import java.sql.Connection;
import java.sql.SQLException;
import org.junit.jupiter.api.BeforeEach;

/** Base of tests of the store's statements: a schema of the test's own on the test server, with the layout in it. */
abstract class LayoutTestBase {

    /** The test's schema. */
    final String schema = PostgresServer.freshSchema();

    @BeforeEach
    void createLayout() throws SQLException {
        try (Connection connection = PostgresServer.connect()) {
            PostgresSchema.createOrMigrate(connection, schema);
        }
    }
}
