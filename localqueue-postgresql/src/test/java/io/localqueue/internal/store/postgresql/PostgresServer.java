package io.localqueue.internal.store.postgresql;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;

/**
 * One real PostgreSQL server for every test of this JVM, started from the binaries on the test class path at first
 * use and stopped when the JVM exits; each test takes a schema of its own, so tests never see each other's rows.
 */
final class PostgresServer {

    private static final AtomicInteger SCHEMAS = new AtomicInteger();
    private static volatile EmbeddedPostgres server;

    private PostgresServer() {
    }

    /** Returns the server's {@code postgres} database, starting the server on first use. */
    static DataSource database() {
        EmbeddedPostgres running = server;
        if (running == null) {
            synchronized (PostgresServer.class) {
                running = server;
                if (running == null) {
                    try {
                        running = EmbeddedPostgres.builder().start();
                    } catch (IOException failure) {
                        throw new UncheckedIOException("the embedded PostgreSQL server did not start", failure);
                    }
                    server = running;
                }
            }
        }
        return running.getPostgresDatabase();
    }

    /** Opens a connection to the server's {@code postgres} database. */
    static Connection connect() throws SQLException {
        return database().getConnection();
    }

    /** Returns a schema name no other test of this JVM uses. */
    static String freshSchema() {
        return "t" + ProcessHandle.current().pid() + "_" + SCHEMAS.incrementAndGet();
    }
}
