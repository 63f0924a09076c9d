package io.localqueue.internal.store.sqlite;

import io.localqueue.BackupResult;
import io.localqueue.internal.store.FileLocation;
import io.localqueue.internal.store.QueueStore;
import io.localqueue.internal.store.SnapshotLocation;
import io.localqueue.internal.store.StoreLocation;
import io.localqueue.internal.store.StoreProvider;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/** The SQLite store as a service of the store seam: the file of a queue directory, or a copy of one. */
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
        return location instanceof FileLocation || location instanceof SnapshotLocation;
    }

    @Override
    public QueueStore open(StoreLocation location) {
        if (location instanceof SnapshotLocation snapshot) {
            return SqliteQueueStore.openSnapshot(snapshot);
        }
        return SqliteQueueStore.open(((FileLocation) location).directory());
    }

    @Override
    public boolean isCurrentLayout(StoreLocation location) {
        return !(location instanceof FileLocation file) || SqliteQueueStore.isCurrentLayout(file.file());
    }

    @Override
    public BackupResult backupAsItIs(StoreLocation location, Path destination) {
        return SqliteQueueStore.backupAsItIs(((FileLocation) location).directory(), destination);
    }
}
