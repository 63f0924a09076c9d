package io.localqueue.internal.store;

import javax.sql.DataSource;

/**
 * A store for a database server, in a module of its own that declares it as a service: the API finds it through
 * {@link java.util.ServiceLoader} when an application opens a database by a {@link DataSource} or a JDBC URL.
 */
public interface ServerStoreProvider {

    /**
     * Names the database engine, for messages.
     *
     * @return such as "PostgreSQL"
     */
    String engine();

    /**
     * Tells whether this store serves the database a JDBC URL names.
     *
     * @param jdbcUrl the URL, such as one a connection's metadata gives
     * @return true when it does
     */
    boolean serves(String jdbcUrl);

    /**
     * Opens the store of a schema on a data source of the caller's, which the store never closes.
     *
     * @param dataSource the data source, best a pool
     * @param schema a valid schema name
     * @return the open store
     */
    QueueStore open(DataSource dataSource, String schema);

    /**
     * Opens the store on a pool of its own, which closing the store closes.
     *
     * @param settings where the database is and how large the pool is
     * @return the open store
     */
    QueueStore open(ServerSettings settings);
}
