package io.localqueue.benchmark;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A real PostgreSQL server inside the benchmark's JVM, started from the binaries on the class path with its data
 * directory in the run's work directory (so {@code --workdir} decides the filesystem measured, as it does for SQLite
 * files), and stopped, its data directory deleted, when closed.
 *
 * <p>The embedded server keeps PostgreSQL's settings but two: a time zone of UTC and 300 connections, and it would
 * default {@code synchronous_commit} to {@code off}, which makes every commit skip the WAL flush. The run sets it back
 * to PostgreSQL's own default, {@code on}, so that {@code DURABLE} (which keeps the server's setting) waits for the
 * flush and {@code RELAXED} (which turns it off per transaction) differs from it.
 */
final class EmbeddedPostgresServer implements AutoCloseable {

    /** The server settings the report records. */
    static final List<String> REPORTED_SETTINGS = List.of("synchronous_commit", "fsync", "wal_sync_method",
            "full_page_writes", "shared_buffers", "wal_buffers", "max_wal_size", "checkpoint_timeout", "commit_delay",
            "max_connections", "wal_level");

    private final EmbeddedPostgres server;
    private final Path dataDirectory;

    private EmbeddedPostgresServer(EmbeddedPostgres server, Path dataDirectory) {
        this.server = server;
        this.dataDirectory = dataDirectory;
    }

    /**
     * Starts a server.
     *
     * @param dataDirectory a directory that does not exist yet, for the server's files
     * @return the running server
     * @throws IOException when the server does not start
     */
    static EmbeddedPostgresServer start(Path dataDirectory) throws IOException {
        EmbeddedPostgres server = EmbeddedPostgres.builder()
                .setDataDirectory(dataDirectory)
                .setCleanDataDirectory(true)
                .setServerConfig("synchronous_commit", "on")
                .start();
        return new EmbeddedPostgresServer(server, dataDirectory);
    }

    /**
     * Returns the JDBC URL of the server's {@code postgres} database, as user {@code postgres}.
     *
     * @return the URL
     */
    String url() {
        return server.getJdbcUrl("postgres", "postgres");
    }

    /**
     * Reads the server's version and the settings the report records.
     *
     * @return the server's conditions
     * @throws SQLException when the server cannot be read
     * @throws IOException when the data directory's filesystem cannot be examined
     */
    PostgresServerInfo describe() throws SQLException, IOException {
        Map<String, String> settings = new LinkedHashMap<>();
        String version;
        try (Connection connection = DriverManager.getConnection(url());
             Statement statement = connection.createStatement()) {
            try (ResultSet rows = statement.executeQuery("SHOW server_version")) {
                rows.next();
                version = rows.getString(1);
            }
            for (String name : REPORTED_SETTINGS) {
                try (ResultSet rows = statement.executeQuery("SHOW " + name)) {
                    rows.next();
                    settings.put(name, rows.getString(1));
                }
            }
            version += " (" + connection.getMetaData().getDriverName() + " "
                    + connection.getMetaData().getDriverVersion() + ")";
        }
        return new PostgresServerInfo(version, settings, Files.getFileStore(dataDirectory).type());
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
