package io.localqueue.bus;

import io.localqueue.DeliveryPolicy;
import io.localqueue.InvalidArgumentException;
import io.localqueue.QueueClosedException;
import io.localqueue.RetryPolicy;
import io.localqueue.internal.engine.Database;
import io.localqueue.internal.engine.QueueEngine;
import io.localqueue.internal.store.ExecutionRow;
import io.localqueue.internal.store.QueueStore;
import io.localqueue.internal.store.StoreWork;
import io.localqueue.internal.store.StoredCheckpoint;
import io.localqueue.internal.store.WriteOptions;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every part of one bus shares, below all of them: its settings, its database and the store writes of its own
 * tables (created on first need), the codec and fan-out of its events, the topology of the moment, the settings of
 * its subscriptions and the engines that read their queues, and whether it is closed. It knows none of the parts
 * that use it: the consumers, the executions and the facade hold it.
 */
final class BusRuntime {

    /** The bus's own lines (an execution's progress among them) log under the facade's name, as users configure. */
    static final Logger LOG = LoggerFactory.getLogger("io.localqueue.bus.EventBus");

    private final Database database;
    private final BusSettings settings;
    private final EventRegistry registry = new EventRegistry();
    private final EventCodec codec;
    private final Fanout fanout;
    private final Runnable ensureOpen = this::ensureOpen;
    private final Map<String, SubscriptionConfig> configs = new ConcurrentHashMap<>();
    private final Map<String, QueueEngine> engines = new ConcurrentHashMap<>();
    private volatile BusTopology topology;
    private volatile boolean tablesReady;
    private volatile boolean closed;

    BusRuntime(BusSettings settings, Database database) {
        this.settings = settings;
        this.database = database;
        this.topology = settings.topology();
        this.codec = new EventCodec(settings.mapper(), registry);
        this.fanout = new Fanout(settings.name(), codec);
    }

    String name() {
        return settings.name();
    }

    BusSettings settings() {
        return settings;
    }

    DeliveryPolicy delivery() {
        return settings.delivery();
    }

    Clock clock() {
        return settings.clock();
    }

    long now() {
        return settings.clock().millis();
    }

    Duration executionLease() {
        return settings.executionLease();
    }

    DeliveryObserver observer() {
        return settings.observer();
    }

    EventCodec codec() {
        return codec;
    }

    Fanout fanout() {
        return fanout;
    }

    BusTopology topology() {
        return topology;
    }

    /** Replaces the topology; the callers that add routes hold the consumers' lock, so none is lost. */
    void topology(BusTopology next) {
        this.topology = next;
    }

    /**
     * Registers a handler's class and returns its type name.
     *
     * @throws IllegalArgumentException when the handler is null or the class is no valid event class
     * @throws InvalidEventIdentityException when its identity names a field it lacks
     */
    String handledType(Class<?> type, @Nullable Object handler) {
        if (handler == null) {
            throw new InvalidArgumentException("handler", "handler must not be null");
        }
        return register(type).name();
    }

    /**
     * Refuses a handler for a type name (or {@code "*"}) that a subscription's routes do not match: routing is the
     * topology's, and a handler never adds a route by itself.
     *
     * @throws IllegalArgumentException when the subscription does not route it
     */
    void requireRouted(String subscription, String pattern) {
        if (!pattern.equals(BusTopology.WILDCARD) && !topology.routes(subscription, pattern)) {
            throw new IllegalArgumentException("subscription '" + subscription + "' does not route '" + pattern
                    + "'; add the route to the topology or use EventBus.handler(type, subscription, handler)");
        }
    }

    /** Registers a class for reading back, checking its identity's fields. */
    EventType register(Class<?> type) {
        EventType eventType = registry.register(type);
        EventCodec.requireIdentityFields(eventType);
        return eventType;
    }

    /** Returns this process's settings of a subscription, made with the bus's concurrency on first use. */
    SubscriptionConfig configOf(String subscription) {
        return configs.computeIfAbsent(subscription, name -> new SubscriptionConfig(name, settings.concurrency()));
    }

    /** The attempts a new delivery of a subscription may take: its retry policy's, or the bus's delivery policy's. */
    int budgetOf(String subscription) {
        SubscriptionConfig config = configs.get(subscription);
        RetryPolicy retry = config == null ? null : config.retry();
        return retry == null ? settings.delivery().maxAttempts() : retry.maxAttempts();
    }

    /** Returns the shared engine of a subscription's queue (stats, dead letters, purge), made on first use. */
    QueueEngine engineOf(String subscription) {
        ensureOpen();
        return engines.computeIfAbsent(fanout.queueOf(subscription), queue -> new QueueEngine(database, queue,
                settings.delivery(), settings.durability(), 0, settings.clock()));
    }

    /** Makes the engine a consumer claims with, its own; with a retry policy its claims write the policy's budget. */
    QueueEngine claimEngine(String subscription, @Nullable RetryPolicy retry) {
        return new QueueEngine(database, fanout.queueOf(subscription), settings.delivery(), settings.durability(), 0,
                settings.clock(), retry == null ? 0 : retry.maxAttempts());
    }

    /** Runs one write transaction, creating the bus's own tables first when this process has not yet. */
    <R> R write(String what, StoreWork<R> work) {
        ensureTables();
        return store().write(WriteOptions.standard(what, settings.durability()), ensureOpen, work);
    }

    /**
     * Runs a dispatch's write in a transaction shared with the other producers of the database at that moment;
     * throwing rolls back this write only.
     */
    <R> R produce(String what, StoreWork<R> work) {
        ensureOpen();
        return database.produce(what, settings.durability(), work);
    }

    /**
     * Creates the bus's own tables (checkpoints, executions, delivery edges) the first time something needs them, so
     * that an application that only dispatches leaves its file as it was.
     */
    void ensureTables() {
        if (!tablesReady) {
            store().write(WriteOptions.standard("create the event bus's tables", settings.durability()), ensureOpen,
                    writes -> {
                        writes.bus().createBusTables();
                        return null;
                    });
            tablesReady = true;
        }
    }

    @Nullable StoredCheckpoint readCheckpoint(String checkpoint) {
        return write("read a checkpoint", writes -> writes.bus().checkpoint(name(), checkpoint));
    }

    boolean deleteCheckpoint(String checkpoint) {
        return write("reset a checkpoint", writes -> writes.bus().deleteCheckpoint(name(), checkpoint));
    }

    boolean executionPending(String executionId) {
        ensureOpen();
        return store().executionPending(executionId);
    }

    /** Lists the stored executions of this bus, reading only. */
    List<ExecutionRow> storedExecutions() {
        ensureOpen();
        return store().executions(name());
    }

    /** Wakes this process's consumers of a queue that just gained deliveries. */
    void signal(String queue) {
        store().wakeups().signal(queue);
    }

    void ensureOpen() {
        if (closed) {
            throw new QueueClosedException("event bus '" + name() + "' is closed");
        }
    }

    boolean isClosed() {
        return closed;
    }

    /** Refuses all further work, closes the subscriptions' engines and releases the database; once only. */
    void close() {
        if (closed) {
            return;
        }
        closed = true;
        engines.values().forEach(QueueEngine::close);
        database.close();
    }

    /** Where the bus's database is, for messages. */
    String location() {
        return store().location();
    }

    private QueueStore store() {
        return database.store();
    }
}
