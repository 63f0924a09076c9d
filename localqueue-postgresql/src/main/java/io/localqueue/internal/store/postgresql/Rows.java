package io.localqueue.internal.store.postgresql;

import java.sql.ResultSet;
import java.sql.SQLException;
import org.jspecify.annotations.Nullable;

/** Reading nullable columns of the store's rows. */
final class Rows {

    private Rows() {
    }

    /** Reads a {@code bigint} column that may be NULL. */
    static @Nullable Long nullableLong(ResultSet rows, int column) throws SQLException {
        long value = rows.getLong(column);
        return rows.wasNull() ? null : value;
    }
}
