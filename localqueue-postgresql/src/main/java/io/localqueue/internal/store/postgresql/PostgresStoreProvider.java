package io.localqueue.internal.store.postgresql;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.localqueue.LocalQueueException;
import io.localqueue.internal.store.DataSourceLocation;
import io.localqueue.internal.store.QueueStore;
import io.localqueue.internal.store.ServerSettings;
import io.localqueue.internal.store.StoreLocation;
import io.localqueue.internal.store.StoreProvider;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;
import org.jspecify.annotations.Nullable;

/**
 * The PostgreSQL store as a service of the store seam: on a caller's data source, or on a HikariCP pool of its own
 * that the store closes.
 */
public final class PostgresStoreProvider implements StoreProvider {

    /** The URL prefix of the PostgreSQL JDBC driver. */
    static final String URL_PREFIX = "jdbc:postgresql:";

    /** Creates the provider; {@link java.util.ServiceLoader} calls this. */
    public PostgresStoreProvider() {
    }

    @Override
    public String engine() {
        return "PostgreSQL";
    }

    @Override
    public boolean serves(StoreLocation location, @Nullable String jdbcUrl) {
        return jdbcUrl != null && jdbcUrl.startsWith(URL_PREFIX);
    }

    @Override
    public QueueStore open(StoreLocation location) {
        if (location instanceof DataSourceLocation caller) {
            return new PostgresQueueStore(caller.dataSource(), caller.schema(), null);
        }
        return open((ServerSettings) location);
    }

    @Override
    public boolean isCurrentLayout(StoreLocation location) {
        if (!(location instanceof ServerSettings settings)) {
            return true;
        }
        Properties properties = new Properties();
        if (settings.username() != null) {
            properties.setProperty("user", settings.username());
        }
        if (settings.password() != null) {
            properties.setProperty("password", settings.password());
        }
        properties.setProperty("ApplicationName", "localqueue");
        properties.setProperty("loginTimeout", String.valueOf(CONNECTION_TIMEOUT_MILLIS / 1000));
        try (Connection connection = DriverManager.getConnection(settings.url(), properties)) {
            return PostgresSchema.isCurrent(connection, settings.schema());
        } catch (SQLException failure) {
            throw new LocalQueueException("cannot connect to " + ServerSettings.withoutCredentials(settings.url())
                    + " as " + (settings.username() == null ? "the URL's user" : settings.username()) + ": "
                    + rootMessage(failure), failure);
        }
    }

    /** Opens the store on a pool of its own, which closing the store closes. */
    private static QueueStore open(ServerSettings settings) {
        HikariDataSource pool;
        try {
            pool = new HikariDataSource(poolConfig(settings));
        } catch (RuntimeException failure) {
            throw new LocalQueueException("cannot connect to " + settings.url() + " as " + (settings.username() == null
                    ? "the URL's user" : settings.username()) + ": " + rootMessage(failure), failure);
        }
        return new PostgresQueueStore(pool, settings.schema(), pool);
    }

    /**
     * How long a borrow from the store's own pool waits for a connection. Only the store uses that pool, each read or
     * transaction holding a connection for its own length, so a longer wait means that the server is out of reach:
     * an operation then fails in seconds, naming the server's refusal, rather than after HikariCP's 30 s default,
     * whatever its own timeout (a {@code get} of one second would otherwise take thirty).
     */
    static final long CONNECTION_TIMEOUT_MILLIS = 5_000;

    /**
     * The pool: its size, credentials, a name that shows in the server's pg_stat_activity, a prompt first try, a
     * bounded wait for a connection, and the sessions' settings of the common write, so that it costs no round trip
     * of its own ({@link PostgresTransactions#SESSION_SETTINGS}).
     */
    static HikariConfig poolConfig(ServerSettings settings) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(settings.url());
        if (settings.username() != null) {
            config.setUsername(settings.username());
        }
        if (settings.password() != null) {
            config.setPassword(settings.password());
        }
        config.setMaximumPoolSize(settings.poolSize());
        config.setMinimumIdle(Math.min(2, settings.poolSize()));
        config.setPoolName("localqueue-" + settings.schema());
        config.addDataSourceProperty("ApplicationName", "localqueue");
        config.setInitializationFailTimeout(1);
        config.setConnectionTimeout(CONNECTION_TIMEOUT_MILLIS);
        config.setConnectionInitSql(PostgresTransactions.SESSION_SETTINGS);
        return config;
    }

    private static String rootMessage(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage();
    }
}
