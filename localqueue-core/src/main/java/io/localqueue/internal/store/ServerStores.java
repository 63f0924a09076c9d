package io.localqueue.internal.store;

import io.localqueue.LocalQueueException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.ServiceLoader;
import javax.sql.DataSource;

/**
 * Finds the {@link ServerStoreProvider} of a database among those on the class or module path, and opens its
 * stores; the keys it gives name one database in this JVM, so every queue on it shares one store.
 */
public final class ServerStores {

    /** Where the one server store this project ships comes from, for the message when none is on the path. */
    static final String POSTGRESQL_MODULE = "io.localqueue:localqueue-postgresql";

    private ServerStores() {
    }

    /**
     * Names a schema reached through a caller's data source: one store per data source object and schema.
     *
     * @param dataSource the data source, compared by identity
     * @param schema the schema
     */
    public record DataSourceKey(DataSource dataSource, String schema) {

        @Override
        public boolean equals(Object other) {
            return other instanceof DataSourceKey key && key.dataSource == dataSource && key.schema.equals(schema);
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(dataSource) * 31 + schema.hashCode();
        }

        /**
         * Opens the store, choosing it by the URL a connection of the data source reports.
         *
         * @return the open store
         */
        public QueueStore open() {
            return providerFor(urlOf(dataSource)).open(dataSource, schema);
        }
    }

    /**
     * Opens the store of a server that {@code settings} name.
     *
     * @param settings the settings
     * @return the open store
     * @throws LocalQueueException when no store on the path serves the URL
     */
    public static QueueStore open(ServerSettings settings) {
        return providerFor(settings.url()).open(settings);
    }

    /**
     * Returns the provider that serves a URL.
     *
     * @param jdbcUrl the URL
     * @return the provider
     * @throws LocalQueueException when none on the path does, naming the module to add
     */
    public static ServerStoreProvider providerFor(String jdbcUrl) {
        List<ServerStoreProvider> providers = ServiceLoader.load(ServerStoreProvider.class,
                ServerStoreProvider.class.getClassLoader()).stream().map(ServiceLoader.Provider::get).toList();
        for (ServerStoreProvider provider : providers) {
            if (provider.serves(jdbcUrl)) {
                return provider;
            }
        }
        if (providers.isEmpty() && jdbcUrl.startsWith("jdbc:postgresql:")) {
            throw new LocalQueueException("no PostgreSQL store is on the class path for " + jdbcUrl + ": add the "
                    + "dependency " + POSTGRESQL_MODULE);
        }
        throw new LocalQueueException("localqueue has no store for the database at " + jdbcUrl + ": it keeps queues "
                + "in a SQLite file (open a directory) or on PostgreSQL (a jdbc:postgresql: URL or DataSource, with "
                + POSTGRESQL_MODULE + ")");
    }

    private static String urlOf(DataSource dataSource) {
        try (Connection connection = dataSource.getConnection()) {
            return connection.getMetaData().getURL();
        } catch (SQLException failure) {
            throw new LocalQueueException("cannot connect through the DataSource " + dataSource + ": "
                    + failure.getMessage(), failure);
        }
    }
}
