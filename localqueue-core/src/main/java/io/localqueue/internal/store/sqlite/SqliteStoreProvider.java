package io.localqueue.internal.store.sqlite;

import io.localqueue.internal.store.FileLocation;
import io.localqueue.internal.store.QueueStore;
import io.localqueue.internal.store.StoreLocation;
import io.localqueue.internal.store.StoreProvider;
import org.jspecify.annotations.Nullable;

/** The SQLite store as a service of the store seam: the file of a queue directory. */
public final class SqliteStoreProvider implements StoreProvider {

    /** Creates the provider; {@link java.util.ServiceLoader} calls this. */
    public SqliteStoreProvider() {
    }

    @Override
    public String engine() {
        return "SQLite";
    }

    @Override
    public boolean serves(StoreLocation location, @Nullable String jdbcUrl) {
        return location instanceof FileLocation;
    }

    @Override
    public QueueStore open(StoreLocation location) {
        return SqliteQueueStore.open(((FileLocation) location).directory());
    }
}
