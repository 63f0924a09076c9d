package io.localqueue.internal.store;

import java.sql.ResultSet;
import java.sql.SQLException;
import org.jspecify.annotations.Nullable;

/** Reading the nullable integer columns of a store's rows, the same on every store. */
public final class Columns {

    private Columns() {
    }

    /**
     * Reads an integer column that may be NULL, as a long.
     *
     * @return the value, or null for NULL
     */
    public static @Nullable Long nullableLong(ResultSet rows, int column) throws SQLException {
        long value = rows.getLong(column);
        return rows.wasNull() ? null : value;
    }

    /**
     * Reads an integer column that may be NULL.
     *
     * @return the value, or null for NULL
     */
    public static @Nullable Integer nullableInt(ResultSet rows, int column) throws SQLException {
        int value = rows.getInt(column);
        return rows.wasNull() ? null : value;
    }
}
