package io.localqueue.internal.store.postgresql;

import io.localqueue.LocalQueueDatabase;
import io.localqueue.TestStore;
import io.localqueue.internal.store.ServerSettings;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Locale;

/**
 * Core's contract tests on PostgreSQL: a test's database is the schema its temporary directory names, on the
 * embedded server, reached through a pool as an application reaches it.
 */
public final class PostgresTestStore implements TestStore {

    @Override
    public String name() {
        return "postgresql";
    }

    @Override
    public LocalQueueDatabase open(Path directory) {
        return LocalQueueDatabase.open(PostgresServer.pool(), schemaOf(directory));
    }

    @Override
    public Connection connect(Path directory) throws SQLException {
        return DriverManager.getConnection(PostgresServer.url() + "&currentSchema=" + schemaOf(directory));
    }

    /** The schema of a directory: its name in lower case, spelled as an identifier; one per test directory. */
    static String schemaOf(Path directory) {
        String name = "t_" + directory.getFileName().toString().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_");
        return name.length() <= ServerSettings.MAX_SCHEMA_LENGTH ? name
                : name.substring(0, ServerSettings.MAX_SCHEMA_LENGTH);
    }
}
