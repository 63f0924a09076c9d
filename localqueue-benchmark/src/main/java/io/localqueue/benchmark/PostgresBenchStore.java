package io.localqueue.benchmark;

import io.localqueue.DurabilityMode;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.SimpleQueue;
import io.localqueue.internal.store.ServerSettings;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;

/**
 * The PostgreSQL store of a run: every scenario directory names a schema of its own on one server, reached by its
 * JDBC URL through {@link LocalQueueDatabase#server(String)} (a HikariCP pool per schema, which closes with the last
 * queue on it), so that each scenario starts on empty tables and child JVMs reach the same ones by URL.
 */
public final class PostgresBenchStore implements BenchStore {

    /** The store's name. */
    public static final String NAME = "postgresql";

    /** The child setting that carries the server's URL. */
    static final String URL_SETTING = "url";

    /** Connections per schema's pool: a Worker's claims, settlements, reads and wake-up watch, and a producer. */
    static final int POOL_SIZE = 10;

    private final String url;

    /**
     * Creates the store of a server.
     *
     * @param url the JDBC URL of its database, user included
     */
    public PostgresBenchStore(String url) {
        this.url = url;
    }

    @Override
    public String name() {
        return NAME;
    }

    /**
     * Returns the server's JDBC URL.
     *
     * @return the URL
     */
    public String url() {
        return url;
    }

    /**
     * Opens a queue in the schema of a scenario directory, creating the layout on first use; the handle is released at
     * once, so the queue holds the store (and its pool) alone and closing it closes them.
     */
    @Override
    public SimpleQueue<BenchMessage> openQueue(Path directory, String queue, DurabilityMode mode,
                                               UnaryOperator<SimpleQueue.Builder<BenchMessage>> configure) {
        try (LocalQueueDatabase database = open(directory)) {
            return configure.apply(SimpleQueue.builder(database, BenchMessage.class).name(queue)
                    .delivery(RunContext.DELIVERY).durability(mode)).build();
        }
    }

    /**
     * Opens the database handle of a scenario directory's schema, creating its layout when missing.
     *
     * @param directory the scenario directory
     * @return the handle
     */
    LocalQueueDatabase open(Path directory) {
        return LocalQueueDatabase.server(url).schema(schemaOf(directory)).poolSize(POOL_SIZE).open();
    }

    @Override
    public List<String> childSettings() {
        return List.of(STORE_SETTING + "=" + NAME, URL_SETTING + "=" + url);
    }

    @Override
    public Scenario rawBaseline(List<RawWorkload> workloads) {
        return new RawPostgresBaseline(this, workloads);
    }

    /** The server is the one behind the URL, on this machine. */
    @Override
    public ServerCpu serverCpu() {
        return ServerCpu.of(url);
    }

    /**
     * Returns the schema of a scenario directory: its name in lower case as an identifier, unique within a run since
     * every directory name starts with the run's counter.
     *
     * @param directory the directory
     * @return such as {@code bench_007_put}
     */
    static String schemaOf(Path directory) {
        String name = "bench_" + directory.getFileName().toString().toLowerCase(Locale.ROOT)
                .replaceAll("[^a-z0-9_]", "_");
        return name.length() <= ServerSettings.MAX_SCHEMA_LENGTH ? name
                : name.substring(0, ServerSettings.MAX_SCHEMA_LENGTH);
    }
}
