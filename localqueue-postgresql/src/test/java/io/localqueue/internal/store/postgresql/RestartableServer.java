package io.localqueue.internal.store.postgresql;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/**
 * A PostgreSQL server of one test's own, on a data directory and a port that stay the same across a stop and a
 * start, so that a handle opened on its URL sees the same server come back; closing it stops it if it runs.
 */
final class RestartableServer implements AutoCloseable {

    private final Path dataDirectory;
    private final int port;
    private @Nullable EmbeddedPostgres running;

    RestartableServer(Path dataDirectory) throws IOException {
        this.dataDirectory = dataDirectory;
        try (ServerSocket socket = new ServerSocket(0)) {
            this.port = socket.getLocalPort();
        }
    }

    /** Starts the server, keeping what an earlier start stored; returns this. */
    RestartableServer start() throws IOException {
        running = EmbeddedPostgres.builder().setDataDirectory(dataDirectory).setCleanDataDirectory(false)
                .setPort(port).start();
        return this;
    }

    /** Stops the server; its URL then refuses connections until the next start. */
    void stop() throws IOException {
        EmbeddedPostgres server = running;
        running = null;
        if (server != null) {
            server.close();
        }
    }

    /** The JDBC URL of the server's {@code postgres} database, the same across restarts. */
    String url() {
        return "jdbc:postgresql://localhost:" + port + "/postgres?user=postgres";
    }

    int port() {
        return port;
    }

    @Override
    public void close() throws IOException {
        stop();
    }
}
