package io.localqueue.internal.engine;

import io.localqueue.DurabilityMode;
import io.localqueue.IntegrityCheckMode;
import io.localqueue.IntegrityCheckResult;
import io.localqueue.InvalidArgumentException;
import io.localqueue.LocalQueueException;
import io.localqueue.internal.store.QueueStore;
import io.localqueue.internal.store.StoreWork;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * One database as the queues of this JVM share it: its store, the group commit of their settlements, the last
 * snapshot of each queue and the retention of their finished rows, opened once per database and reference counted, so every queue and handle on it uses one
 * writer connection and one small set of readers.
 */
public final class Database implements AutoCloseable {

    /** The most findings an integrity check may report; the Python library uses the same bounds. */
    public static final int MAX_INTEGRITY_ERRORS = 1000;

    private static final Map<Object, Database> OPEN = new HashMap<>();

    private final Object key;
    private final QueueStore store;
    private final GroupCommit groupCommit;
    private final ProducerGroup producers;
    private final SnapshotCache snapshots;
    private final Retention retention;
    private int references;

    private Database(Object key, QueueStore store) {
        this.key = key;
        this.store = store;
        this.groupCommit = new GroupCommit(store);
        this.producers = new ProducerGroup(store);
        this.snapshots = new SnapshotCache(store);
        this.retention = new Retention(store, Retention.INTERVAL);
    }

    /**
     * Opens the database {@code key} names, or joins it when this JVM already has it open.
     *
     * @param key what names the database in this JVM, such as a queue directory's real path
     * @param opener opens the store when nothing has it open yet
     * @param <K> the key type
     * @return the shared database; call {@link #close()} once for every call to this method
     */
    public static <K> Database acquire(K key, Function<K, QueueStore> opener) {
        synchronized (OPEN) {
            Database database = OPEN.get(key);
            if (database == null) {
                database = new Database(key, opener.apply(key));
                OPEN.put(key, database);
            }
            database.references++;
            return database;
        }
    }

    /**
     * Takes one more reference to this open database.
     *
     * @return this database; call {@link #close()} once more
     * @throws LocalQueueException when the database was closed meanwhile
     */
    public Database retain() {
        synchronized (OPEN) {
            if (references == 0) {
                throw new LocalQueueException("database " + store.location() + " is closed");
            }
            references++;
            return this;
        }
    }

    /**
     * Returns the store.
     *
     * @return the store
     */
    public QueueStore store() {
        return store;
    }

    GroupCommit groupCommit() {
        return groupCommit;
    }

    ProducerGroup producers() {
        return producers;
    }

    /**
     * Runs a producer's transitions in a write transaction shared with the other producers' writes of the moment
     * ({@link ProducerGroup}), and returns their result once committed; throwing rolls back this caller's only.
     *
     * @param transaction what the transaction does
     * @param durability the durability this write asks for; the shared commit uses the strongest asked for
     * @param work the transitions
     * @param <R> the result type
     * @return the work's result
     */
    public <R> R produce(String transaction, DurabilityMode durability, StoreWork<R> work) {
        return producers.write(transaction, durability, work);
    }

    SnapshotCache snapshots() {
        return snapshots;
    }

    Retention retention() {
        return retention;
    }

    /**
     * Checks the whole database; a damaged or unreadable one gives a failed result, never an exception.
     *
     * @param mode how thoroughly to check
     * @param maxErrors how many findings to report at most, 1 to {@value #MAX_INTEGRITY_ERRORS}
     * @return the result
     * @throws IllegalArgumentException when {@code mode} is null or {@code maxErrors} is out of range
     */
    public IntegrityCheckResult checkIntegrity(IntegrityCheckMode mode, int maxErrors) {
        if (mode == null) {
            throw new InvalidArgumentException("mode", "mode must not be null");
        }
        if (maxErrors < 1 || maxErrors > MAX_INTEGRITY_ERRORS) {
            throw new InvalidArgumentException("maxErrors", "maxErrors must be between 1 and " + MAX_INTEGRITY_ERRORS + ", got "
                    + maxErrors);
        }
        return store.checkIntegrity(mode, maxErrors);
    }

    /**
     * Lists the names of the queues holding at least one job, in name order.
     *
     * @return the names
     */
    public List<String> queueNames() {
        return store.queueNames();
    }

    /**
     * Releases one reference; the last one stops the background recounts, commits what is pending and closes the
     * store.
     */
    @Override
    public void close() {
        synchronized (OPEN) {
            if (references == 0) {
                return;
            }
            references--;
            if (references > 0) {
                return;
            }
            OPEN.remove(key);
        }
        retention.close();
        snapshots.close();
        groupCommit.close();
        store.close();
    }
}
