package io.localqueue.internal.store.postgresql;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
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
public final class PostgresServer {

    private static final AtomicInteger SCHEMAS = new AtomicInteger();
    private static volatile EmbeddedPostgres server;
    private static volatile HikariDataSource pool;

    private PostgresServer() {
    }

    /** Returns the server's {@code postgres} database, starting the server on first use. */
    public static DataSource database() {
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

    /** Returns a pool on the server's {@code postgres} database, as applications reach it, opened on first use. */
    public static DataSource pool() {
        HikariDataSource open = pool;
        if (open == null) {
            synchronized (PostgresServer.class) {
                open = pool;
                if (open == null) {
                    database();
                    HikariConfig config = new HikariConfig();
                    config.setJdbcUrl(url());
                    config.setUsername("postgres");
                    config.setMaximumPoolSize(40);
                    config.setMinimumIdle(2);
                    config.setPoolName("tests");
                    open = new HikariDataSource(config);
                    pool = open;
                }
            }
        }
        return open;
    }

    /** Returns the JDBC URL of the server's {@code postgres} database, starting the server on first use. */
    public static String url() {
        database();
        return server.getJdbcUrl("postgres", "postgres");
    }

    /** Opens a connection to the server's {@code postgres} database. */
    public static Connection connect() throws SQLException {
        return database().getConnection();
    }

    /** Returns a schema name no other test of this JVM uses. */
    public static String freshSchema() {
        return "t" + ProcessHandle.current().pid() + "_" + SCHEMAS.incrementAndGet();
    }

    /**
     * Returns a fresh schema on the server as the multi-process tests' children open it: the URL, a bar, the schema.
     */
    public static String freshTarget() {
        return url() + "|" + freshSchema();
    }
}
