package io.localqueue.internal.store;

import io.localqueue.BackupResult;
import java.nio.file.Path;
import io.localqueue.LocalQueueException;
import java.util.List;
import java.util.ServiceLoader;
import org.jspecify.annotations.Nullable;

/**
 * Opens the store of a location through the {@link StoreProvider} that serves it, among those on the class or module
 * path: every store is found the same way.
 */
public final class Stores {

    /** Where the one server store this project ships comes from, for the message when none is on the path. */
    static final String POSTGRESQL_MODULE = "io.localqueue:localqueue-postgresql";

    private Stores() {
    }

    /**
     * Opens the store of a location.
     *
     * @param location where the database is
     * @return the open store
     * @throws LocalQueueException when no store on the path serves it, naming the module to add
     */
    public static QueueStore open(StoreLocation location) {
        return providerFor(location).open(location);
    }

    /**
     * Tells, reading only, whether opening a location would leave its layout as it is.
     *
     * @param location where the database is
     * @return false when opening would add to its layout
     * @throws LocalQueueException when no store serves it, or what is there cannot be opened
     */
    public static boolean isCurrentLayout(StoreLocation location) {
        return providerFor(location).isCurrentLayout(location);
    }

    /**
     * Backs the database of a location up without opening it as a store.
     *
     * @param location where the database is
     * @param destination where the backup goes
     * @return what was copied and how it was verified
     */
    public static BackupResult backupAsItIs(StoreLocation location, Path destination) {
        return providerFor(location).backupAsItIs(location, destination);
    }

    private static StoreProvider providerFor(StoreLocation location) {
        String url = null;
        if (location instanceof ServerSettings settings) {
            url = settings.url();
        } else if (location instanceof DataSourceLocation dataSource) {
            url = dataSource.url();
        }
        return providerFor(location, url);
    }

    private static StoreProvider providerFor(StoreLocation location, @Nullable String url) {
        List<StoreProvider> providers = ServiceLoader.load(StoreProvider.class, StoreProvider.class.getClassLoader())
                .stream().map(ServiceLoader.Provider::get).toList();
        for (StoreProvider provider : providers) {
            if (provider.serves(location, url)) {
                return provider;
            }
        }
        if (url == null) {
            throw new LocalQueueException("no store on the class path opens the file of " + location
                    + "; the SQLite store of localqueue-core is missing from META-INF/services");
        }
        if (url.startsWith("jdbc:postgresql:") && providers.stream().noneMatch(p -> p.engine().equals("PostgreSQL"))) {
            throw new LocalQueueException("no PostgreSQL store is on the class path for " + url + ": add the "
                    + "dependency " + POSTGRESQL_MODULE);
        }
        throw new LocalQueueException("localqueue has no store for the database at " + url + ": it keeps queues "
                + "in a SQLite file (open a directory) or on PostgreSQL (a jdbc:postgresql: URL or DataSource, with "
                + POSTGRESQL_MODULE + ")");
    }
}
