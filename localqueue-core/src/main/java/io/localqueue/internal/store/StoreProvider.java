package io.localqueue.internal.store;

import io.localqueue.BackupResult;
import io.localqueue.LocalQueueException;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/**
 * A store, declared as a service: {@link Stores} finds every store through {@link java.util.ServiceLoader}, the
 * SQLite store of this module as the server stores of their own modules, and asks each whether it serves a location.
 */
public interface StoreProvider {

    /**
     * Names the database engine, for messages.
     *
     * @return such as "PostgreSQL"
     */
    String engine();

    /**
     * Tells whether this store serves a location.
     *
     * @param location where the database is
     * @param jdbcUrl the URL of a server location (its settings', or the one a data source's connection reports);
     *                null for a file
     * @return true when it does
     */
    boolean serves(StoreLocation location, @Nullable String jdbcUrl);

    /**
     * Opens the store of a location this provider serves; on a caller's data source the store never closes the
     * data source, on server settings it opens a pool of its own that closing the store closes.
     *
     * @param location the location
     * @return the open store
     */
    QueueStore open(StoreLocation location);

    /**
     * Tells, reading only, whether opening a location would leave the layout of the database there as it is; a store
     * asked of a location it does not serve answers true.
     *
     * @param location a location this provider serves
     * @return false when opening adds tables, columns or indexes to what is there
     */
    default boolean isCurrentLayout(StoreLocation location) {
        return true;
    }

    /**
     * Backs the database of a location up without opening it as a store, reading only, so its layout stays as it is
     * in the backup too.
     *
     * @param location a location this provider serves
     * @param destination where the backup goes
     * @return what was copied and how it was verified
     * @throws LocalQueueException when the store has no such backup
     */
    default BackupResult backupAsItIs(StoreLocation location, Path destination) {
        throw new LocalQueueException(engine() + " has no backup of a database it has not opened");
    }
}
