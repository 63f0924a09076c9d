package io.localqueue.internal.store;

import io.localqueue.LocalQueueException;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * A schema reached through a caller's data source: one store per data source object and schema.
 *
 * @param dataSource the data source, compared by identity
 * @param schema the schema
 */
public record DataSourceLocation(DataSource dataSource, String schema) implements StoreLocation {

    @Override
    public boolean equals(Object other) {
        return other instanceof DataSourceLocation location && location.dataSource == dataSource
                && location.schema.equals(schema);
    }

    @Override
    public int hashCode() {
        return System.identityHashCode(dataSource) * 31 + schema.hashCode();
    }

    /**
     * Returns the JDBC URL a connection of the data source reports.
     *
     * @return the URL
     * @throws LocalQueueException when no connection can be had
     */
    public String url() {
        try (Connection connection = dataSource.getConnection()) {
            return connection.getMetaData().getURL();
        } catch (SQLException failure) {
            throw new LocalQueueException("cannot connect through the DataSource " + dataSource + ": "
                    + failure.getMessage(), failure);
        }
    }
}
