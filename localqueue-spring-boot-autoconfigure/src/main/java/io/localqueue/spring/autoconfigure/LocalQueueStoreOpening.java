package io.localqueue.spring.autoconfigure;

import static io.localqueue.spring.PropertyChecks.apply;

import io.localqueue.LocalQueueDatabase;
import io.localqueue.LocalQueueException;
import io.localqueue.spring.LocalQueueProperties;
import java.nio.file.Path;
import java.util.function.Function;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * Opens the database {@code localqueue.store} names: the file in {@code localqueue.path} (made absolute, so that
 * every message names the same path), or PostgreSQL through a DataSource marked {@code @LocalQueueDataSource} or
 * {@code localqueue.postgresql.url}, never through a DataSource that is not marked. What contradicts itself ends the
 * start naming the property; a store that refuses ends it with Boot's failure report, saying where and what to do.
 */
final class LocalQueueStoreOpening {

    private static final Logger log = LoggerFactory.getLogger(LocalQueueStoreOpening.class);

    private static final String PREFIX = "localqueue.postgresql.";

    private LocalQueueStoreOpening() {
    }

    /**
     * Opens the database.
     *
     * @param properties the configuration
     * @param marked the DataSource bean marked {@code @LocalQueueDataSource}, or null
     * @return the open handle
     */
    static LocalQueueDatabase open(LocalQueueProperties properties, @Nullable DataSource marked) {
        LocalQueueProperties.Postgresql postgresql = properties.getPostgresql();
        if (properties.getStore() == LocalQueueProperties.Store.SQLITE) {
            if (marked != null) {
                throw new InvalidConfigurationPropertyValueException("localqueue.store", "sqlite", "a DataSource "
                        + "bean is marked @LocalQueueDataSource, but the queues are kept in SQLite: set "
                        + "localqueue.store=postgresql to keep them in that DataSource, or remove the mark");
            }
            Path directory = properties.getPath().toAbsolutePath().normalize();
            if (postgresql.getUrl() != null) {
                log.warn("localqueue.postgresql.url is set, but localqueue.store is sqlite: the queues are kept in "
                        + "{}; set localqueue.store=postgresql to keep them in PostgreSQL", directory);
            }
            String given = properties.getPath().toString();
            return opened("localqueue.path " + directory + (given.equals(directory.toString()) ? ""
                    : " (set as " + given + ")"), refused -> QueueFileAdvice.action(directory, refused),
                    () -> LocalQueueDatabase.open(directory));
        }
        String schema = postgresql.getSchema();
        if (marked != null) {
            if (postgresql.getUrl() != null) {
                throw new InvalidConfigurationPropertyValueException(PREFIX + "url", postgresql.getUrl(), "a "
                        + "DataSource bean is marked @LocalQueueDataSource too: name the database one way, the "
                        + "marked DataSource or the URL");
            }
            return opened("the DataSource marked @LocalQueueDataSource", refused -> "Check that the marked DataSource "
                    + "reaches a PostgreSQL server that is up, and that its user may create schema '" + schema
                    + "' or use it (" + PREFIX + "schema).", () -> apply(PREFIX + "schema", schema,
                    () -> LocalQueueDatabase.open(marked, schema)));
        }
        String url = postgresql.getUrl();
        if (url == null || url.isBlank()) {
            throw new InvalidConfigurationPropertyValueException("localqueue.store", "postgresql", "PostgreSQL "
                    + "needs localqueue.postgresql.url, or a DataSource bean marked @LocalQueueDataSource; the "
                    + "application's own DataSource is not taken without the mark");
        }
        LocalQueueDatabase.ServerBuilder server = apply(PREFIX + "url", url, () -> LocalQueueDatabase.server(url));
        // Blank is unset, so that ${QUEUE_DB_USER:} leaves the user to the URL.
        String username = postgresql.getUsername();
        if (username != null && !username.isBlank()) {
            server.username(username);
        }
        String password = postgresql.getPassword();
        if (password != null && !password.isEmpty()) {
            server.password(password);
        }
        apply(PREFIX + "schema", schema, () -> server.schema(schema));
        apply(PREFIX + "pool-size", postgresql.getPoolSize(), () -> server.poolSize(postgresql.getPoolSize()));
        return opened(url, refused -> "Check that the server is up, that " + PREFIX + "url, " + PREFIX
                + "username and " + PREFIX + "password are right, and that the user may create schema '" + schema
                + "' or use it (" + PREFIX + "schema).", server::open);
    }

    /** Opens the database, reporting a store that refuses with where it is and what to do about the refusal. */
    private static LocalQueueDatabase opened(String where, Function<LocalQueueException, String> action,
                                             Supplier<LocalQueueDatabase> open) {
        try {
            return open.get();
        } catch (LocalQueueException refused) {
            throw new UnavailableStoreException(where, action.apply(refused), refused);
        }
    }
}
