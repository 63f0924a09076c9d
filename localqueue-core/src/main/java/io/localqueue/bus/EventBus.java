package io.localqueue.bus;

import io.localqueue.DeduplicationConflictException;
import io.localqueue.DeliveryPolicy;
import io.localqueue.DurabilityMode;
import io.localqueue.JobOutcome;
import io.localqueue.JsonSerializer;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.QueueClosedException;
import io.localqueue.RetryPolicy;
import io.localqueue.internal.engine.Database;
import io.localqueue.internal.engine.DatabaseHandles;
import io.localqueue.internal.engine.QueueEngine;
import io.localqueue.internal.store.Delivered;
import io.localqueue.internal.store.ExecutionRow;
import io.localqueue.internal.store.FencedResults;
import io.localqueue.internal.store.QueueStore;
import io.localqueue.internal.store.Settlement;
import io.localqueue.internal.store.StoreWork;
import io.localqueue.internal.store.StoredHeaders;
import io.localqueue.internal.store.StoredCheckpoint;
import io.localqueue.internal.store.WriteOptions;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

/**
 * A durable event bus on a queue file: {@link #dispatch(Object)} stores one delivery per subscription its topology
 * routes the event to, all in one transaction; handlers registered here consume their subscriptions once
 * {@link #start()} runs, each subscription a consumer group shared with every other process (Java or Python) that
 * consumes it from the same file. Thread-safe; {@link #close()} stops consuming and is idempotent.
 *
 * <pre>{@code
 * import io.localqueue.bus.BusEvent;
 * import io.localqueue.bus.EventBus;
 * import java.nio.file.Path;
 *
 * @BusEvent(name = "user.created")
 * record UserCreated(String userId) {}
 *
 * try (EventBus bus = EventBus.builder(Path.of("./data")).build()) {
 *     bus.handler(UserCreated.class, (event, context) -> { welcome(event.userId()); return null; });
 *     bus.start();
 *     bus.dispatch(new UserCreated("u-1"));
 * }
 * }</pre>
 *
 * @since 0.1.0
 */
public final class EventBus implements AutoCloseable {

    /** What the queue of every subscription is named after: {@code __bus__:<bus>:<subscription>}. */
    public static final String QUEUE_PREFIX = LocalQueueDatabase.BUS_QUEUE_PREFIX;

    /** The name of a bus built without one. */
    public static final String DEFAULT_NAME = "default";

    /** How long an execution's source lease lasts without renewal, unless the builder says. */
    public static final Duration DEFAULT_EXECUTION_LEASE = Duration.ofSeconds(60);

    /** How long {@link #close()} waits for running handlers. */
    public static final Duration DEFAULT_SHUTDOWN_TIMEOUT = Duration.ofSeconds(30);

    private final Database database;
    private final String name;
    private final DeliveryPolicy delivery;
    private final DurabilityMode durability;
    private final boolean requireSubscribers;
    private final int concurrency;
    private final Clock clock;
    private final Duration executionLease;
    private final DeliveryObserver observer;
    private final DispatchInterceptor interceptor;
    private final EventRegistry registry = new EventRegistry();
    private final EventCodec codec;
    private final Fanout fanout;
    private final Runnable ensureOpen = this::ensureOpen;
    private final Map<String, Subscription> subscriptions = new ConcurrentHashMap<>();
    private final Map<String, QueueEngine> engines = new ConcurrentHashMap<>();
    /** This process's consumers by subscription; written under {@code lifecycle}, read by observers without it. */
    private final Map<String, SubscriptionConsumer> consumers = new ConcurrentHashMap<>();
    private final Set<Execution<?>> executions = ConcurrentHashMap.newKeySet();
    private final ExecutionDeletions deletions = new ExecutionDeletions(this);
    private final Object lifecycle = new Object();
    private volatile BusTopology topology;
    private volatile boolean started;
    private volatile boolean tablesReady;
    private volatile boolean closed;
    private boolean managedRunner;
    private int runnerUsers;

    private EventBus(Builder builder, Database database) {
        this.database = database;
        this.name = builder.name;
        this.delivery = builder.delivery;
        this.durability = builder.durability;
        this.requireSubscribers = builder.requireSubscribers;
        this.concurrency = builder.concurrency;
        this.clock = builder.clock;
        this.executionLease = builder.executionLease;
        this.observer = builder.observer;
        this.interceptor = builder.interceptor;
        this.topology = builder.topology;
        this.codec = new EventCodec(builder.mapper, registry);
        this.fanout = new Fanout(name, codec);
    }

    /**
     * Creates the bus's own tables (checkpoints, executions, delivery edges) the first time something needs them, so
     * that an application that only has the bus at hand leaves its file as it was.
     */
    private void ensureTables() {
        if (!tablesReady) {
            store().write(WriteOptions.standard("create the event bus's tables", durability), ensureOpen, writes -> {
                writes.createBusTables();
                return null;
            });
            tablesReady = true;
        }
    }

    /**
     * Starts building a bus on the queue file of a directory, which is created when missing.
     *
     * @param directory the queue directory
     * @return the builder
     * @throws IllegalArgumentException when null
     */
    public static Builder builder(Path directory) {
        if (directory == null) {
            throw new IllegalArgumentException("directory must not be null");
        }
        return new Builder(() -> {
            try (LocalQueueDatabase handle = LocalQueueDatabase.open(directory)) {
                return DatabaseHandles.retain(handle);
            }
        });
    }

    /**
     * Starts building a bus on an open database handle, sharing its connections with the handle's queues.
     *
     * @param database the handle, which must stay open while the bus is
     * @return the builder
     * @throws IllegalArgumentException when null or closed
     */
    public static Builder builder(LocalQueueDatabase database) {
        if (database == null) {
            throw new IllegalArgumentException("database must not be null");
        }
        if (database.isClosed()) {
            throw new IllegalArgumentException("database " + database + " is closed");
        }
        return new Builder(() -> DatabaseHandles.retain(database));
    }

    /**
     * Returns the bus's name, part of every subscription's queue name.
     *
     * @return the name
     */
    public String name() {
        return name;
    }

    /**
     * Returns the routes of the moment, including those handler registrations added.
     *
     * @return the topology
     */
    public BusTopology topology() {
        return topology;
    }

    /**
     * Returns the stored {@code event_type} of an event class: its {@link BusEvent#name()}, or its simple name when
     * it declares none; the subscription {@link #handler(Class, EventHandler)} derives from it has this name.
     *
     * @param type the event class
     * @return the type name
     * @throws IllegalArgumentException when it is not a valid event class
     */
    public static String typeNameOf(Class<?> type) {
        return EventType.of(type).name();
    }

    /**
     * Makes a class readable by this bus's consumers without a handler of its own (for wildcard handlers and dead
     * letters).
     *
     * @param type the event class
     * @throws IllegalArgumentException when it is not a valid event class or its type name belongs to another class
     * @throws InvalidEventIdentityException when its identity names a field it lacks
     */
    public void register(Class<?> type) {
        EventCodec.requireIdentityFields(registry.register(type));
    }

    /**
     * Stores one delivery of the event per subscription that routes its type, in one transaction, and returns once
     * committed; a delivery whose subscription holds the event id or identity already is reused, not duplicated.
     *
     * @param event the event, or an {@link EventEnvelope} with metadata of the caller's
     * @return what was stored; empty when nothing routes the event and subscribers are not required
     * @throws NoSubscribersException when nothing routes the event and the bus requires subscribers
     * @throws DeduplicationConflictException when its identity is stored with another payload; nothing is written
     * @throws InvalidEventIdentityException when an identity value is missing, null, blank or not finite
     */
    public DispatchReceipt dispatch(Object event) {
        return dispatchAll(List.of(requireEvent(event))).get(0);
    }

    /**
     * Dispatches events in one transaction: either every delivery of every event is stored, or none is.
     *
     * @param events the events (or envelopes), in order
     * @return one receipt per event, in order
     * @throws NoSubscribersException when nothing routes one of them and the bus requires subscribers
     * @throws DeduplicationConflictException when an identity is stored with another payload; nothing is written
     */
    public List<DispatchReceipt> dispatchAll(List<?> events) {
        if (events == null) {
            throw new IllegalArgumentException("events must not be null");
        }
        ensureOpen();
        Fanout.Plan planned = plan(events, null);
        if (planned.events().isEmpty()) {
            return List.of();
        }
        return intercepted(planned, Map.of(), null, plan -> {
            requireRouted(plan);
            Delivered delivered = plan.deliveries().isEmpty() ? Delivered.NOTHING
                    : store().write(WriteOptions.standard("dispatch", durability), ensureOpen,
                            writes -> Fanout.write(writes, plan, clock.millis()));
            signal(plan);
            return Fanout.receipts(plan, delivered);
        });
    }

    /**
     * Ingests events in batches of {@value SourceConfig#DEFAULT_BATCH_SIZE}, one transaction per batch; an error
     * stops the ingestion and keeps the batches committed before it.
     *
     * @param events the events (or envelopes), read one batch ahead at most
     * @return what was committed
     * @throws NoSubscribersException when nothing routes an event and the bus requires subscribers
     */
    public IngestionResult ingest(Iterable<?> events) {
        return ingest(events, Function.identity());
    }

    /**
     * Ingests a source's items, each turned into an event by {@code transform} exactly once, in batches of
     * {@value SourceConfig#DEFAULT_BATCH_SIZE}.
     *
     * @param source the items
     * @param transform item → event (or envelope), never null
     * @param <T> the item type
     * @return what was committed
     * @throws IllegalArgumentException when an argument is null or the transform returns null
     */
    public <T> IngestionResult ingest(Iterable<T> source, Function<? super T, ?> transform) {
        if (source == null) {
            throw new IllegalArgumentException("source must not be null");
        }
        requireTransform(transform);
        ensureOpen();
        java.util.Iterator<T> items = source.iterator();
        SourceReader<T> reader = new SourceReader<>() {
            private long index;

            @Override
            public boolean hasNext() {
                return items.hasNext();
            }

            @Override
            public SourceRecord<T> next() {
                index++;
                return new SourceRecord<>(items.next(), Long.toString(index));
            }

            @Override
            public void close() {
                if (items instanceof AutoCloseable closeable) {
                    try {
                        closeable.close();
                    } catch (Exception ignored) {
                        // the ingestion's own outcome is what the caller hears
                    }
                }
            }
        };
        return new Ingestion<>(this, reader, null, null, null, transform, SourceConfig.DEFAULT_BATCH_SIZE, 0,
                Ingestion.BatchHook.NONE, () -> false).run();
    }

    /**
     * Ingests a resumable source from where its checkpoint stands, committing the checkpoint with each batch; a
     * second run after a crash or an error resumes after the last committed batch.
     *
     * @param source the source
     * @param checkpoint the checkpoint's name
     * @param transform item → event (or envelope), never null
     * @param batchSize items per transaction, at least 1
     * @param maxPending the most pending deliveries per subscription, or 0 for no limit
     * @param <T> the item type
     * @return what was committed
     * @throws SourceChangedException when the checkpoint follows a source with another fingerprint; nothing is read
     * @throws io.localqueue.CheckpointConflictException when another ingestion moved the checkpoint meanwhile
     */
    public <T> IngestionResult ingest(ResumableSource<T> source, String checkpoint, Function<? super T, ?> transform,
                                      int batchSize, long maxPending) {
        if (source == null) {
            throw new IllegalArgumentException("source must not be null");
        }
        requireCheckpointName(checkpoint);
        requireTransform(transform);
        if (batchSize < 1) {
            throw new IllegalArgumentException("batchSize must be at least 1, got " + batchSize);
        }
        if (maxPending < 0) {
            throw new IllegalArgumentException("maxPending must be positive, or 0 for none, got " + maxPending);
        }
        ensureOpen();
        return resumableIngestion(source, checkpoint, transform, batchSize, maxPending, Ingestion.BatchHook.NONE,
                () -> false).run();
    }

    /**
     * Prepares the ingestion of a resumable source at its checkpoint's cursor, refusing a changed source before it
     * is opened.
     */
    <T> Ingestion<T> resumableIngestion(ResumableSource<T> source, String checkpoint, Function<? super T, ?> transform,
                                        int batchSize, long maxPending, Ingestion.BatchHook hook,
                                        java.util.function.BooleanSupplier stop) {
        StoredCheckpoint stored = readCheckpoint(checkpoint);
        String fingerprint = source.fingerprint();
        if (stored != null && !java.util.Objects.equals(stored.sourceFingerprint(), fingerprint)) {
            throw sourceChanged(checkpoint, stored.sourceFingerprint(), fingerprint);
        }
        SourceReader<T> reader = source.open(stored == null ? null : stored.cursor());
        return new Ingestion<>(this, reader, checkpoint, fingerprint, stored, transform, batchSize, maxPending, hook,
                stop);
    }

    SourceChangedException sourceChanged(String checkpoint, @Nullable String stored, @Nullable String given) {
        return new SourceChangedException("checkpoint '" + checkpoint + "' of bus '" + name + "' follows a source "
                + "with fingerprint " + stored + ", not " + given
                + "; reset the checkpoint to ingest this source from its start");
    }

    /**
     * Binds a resumable source to this bus under a checkpoint, with a transform; the definition is named after the
     * checkpoint.
     *
     * @param source the source
     * @param checkpoint the checkpoint's name
     * @param transform item → event (or envelope)
     * @param <T> the item type
     * @return the definition, whose config sets batch size and pending limit
     * @throws IllegalArgumentException when an argument is null or the checkpoint name blank
     */
    public <T> SourceDefinition<T> source(ResumableSource<T> source, String checkpoint,
                                          Function<? super T, ?> transform) {
        if (source == null) {
            throw new IllegalArgumentException("source must not be null");
        }
        requireCheckpointName(checkpoint);
        requireTransform(transform);
        return new SourceDefinition<>(this, checkpoint, source, checkpoint, transform);
    }

    /**
     * Returns a checkpoint of this bus, which need not exist yet.
     *
     * @param name the checkpoint's name
     * @return the checkpoint
     * @throws IllegalArgumentException when the name is blank
     */
    public IngestionCheckpoint checkpoint(String name) {
        requireCheckpointName(name);
        return new IngestionCheckpoint(this, name);
    }

    /**
     * Registers a handler for a class on the subscription named after its event type, adding that route. While the
     * bus consumes, a handler added to a consuming subscription takes part at once, and a subscription that gains its
     * first handler starts at the next {@link #start()}.
     *
     * @param type the event class
     * @param handler the handler
     * @param <E> the event type
     * @return the subscription
     * @throws IllegalArgumentException when the type name is not a valid subscription name (give one with
     *                                  {@link #handler(Class, String, EventHandler)}) or the subscription has a
     *                                  handler for it already
     * @throws QueueClosedException once the bus is closed
     */
    public <E> Subscription handler(Class<E> type, EventHandler<? super E> handler) {
        String typeName = EventType.of(type).name();
        if (!Names.isValid(typeName)) {
            throw new IllegalArgumentException("event type '" + typeName + "' is not a valid subscription name; "
                    + "give the subscription with handler(type, subscription, handler)");
        }
        return handler(type, typeName, handler);
    }

    /**
     * Registers a handler for a class on a subscription of the caller's naming, adding the route from it to the
     * class's type; several types may share one subscription, and several subscriptions one type.
     *
     * @param type the event class
     * @param subscription the subscription's name
     * @param handler the handler
     * @param <E> the event type
     * @return the subscription
     * @throws IllegalArgumentException when the name is invalid or the subscription has a handler for the type
     * @throws QueueClosedException once the bus is closed
     */
    public <E> Subscription handler(Class<E> type, String subscription, EventHandler<? super E> handler) {
        Names.requireValid(subscription, "subscription");
        synchronized (lifecycle) {
            ensureOpen();
            String typeName = requireHandled(type, handler);
            Subscription target = subscriptionObject(subscription);
            if (target.hasExact(typeName)) {
                throw new IllegalArgumentException("subscription '" + subscription + "' has a handler for '"
                        + typeName + "' already");
            }
            BusTopology next = topology.withRoute(subscription, typeName);
            target.put(typeName, castHandler(handler));
            topology = next;
            return target;
        }
    }

    /**
     * Registers a handler on a declared subscription for an event type its routes already match, or for every type
     * ({@code "*"}); routing does not change, and an exact handler wins over the wildcard.
     *
     * @param pattern an event type name, or {@code "*"}
     * @param subscription the declared subscription
     * @param handler the handler, which receives the event as its registered class
     * @return the subscription
     * @throws IllegalArgumentException when the subscription is not declared or does not route the type
     * @throws QueueClosedException once the bus is closed
     */
    public Subscription on(String pattern, String subscription, EventHandler<Object> handler) {
        if (pattern == null || pattern.isBlank()) {
            throw new IllegalArgumentException("pattern must not be blank");
        }
        if (handler == null) {
            throw new IllegalArgumentException("handler must not be null");
        }
        synchronized (lifecycle) {
            ensureOpen();
            Subscription target = subscription(subscription);
            if (!pattern.equals(BusTopology.WILDCARD) && !topology.routes(subscription, pattern)) {
                throw new IllegalArgumentException("subscription '" + subscription + "' does not route '" + pattern
                        + "'; add the route to the topology or use handler(type, subscription, handler)");
            }
            target.put(pattern, handler);
            return target;
        }
    }

    /**
     * Runs a source definition to completion: ingests its source (resuming where its checkpoint stands, under a
     * source lease so that one process reads it at a time) and waits until none of its deliveries, nor any their
     * handlers emitted, is ready or leased. This process's handlers consume meanwhile (started for the call when the
     * bus is not consuming already); other processes on the file may consume too. A later call after a crash resumes
     * the same execution.
     *
     * @param definition a definition of this bus whose source has a fingerprint
     * @return the completed execution; dead letters are counted, not thrown
     * @throws IllegalArgumentException when the definition is another bus's, or its source has no fingerprint
     * @throws SourceChangedException when the checkpoint follows a source with another fingerprint
     */
    public ExecutionResult execute(SourceDefinition<?> definition) {
        return execute(definition, null);
    }

    /**
     * Runs a source definition to completion, or until {@code timeout} (counted once the execution is open) passes.
     *
     * @param definition a definition of this bus whose source has a fingerprint
     * @param timeout the longest wait, or null for none
     * @return the completed execution
     * @throws ExecutionTimeoutException when the timeout passes first; what was committed stays
     */
    public ExecutionResult execute(SourceDefinition<?> definition, @Nullable Duration timeout) {
        if (definition == null || definition.bus() != this) {
            throw new IllegalArgumentException("definition must be one of this bus's, made by its source(…)");
        }
        if (timeout != null) {
            io.localqueue.internal.time.Durations.requirePositiveMillis(timeout, "timeout");
        }
        ensureOpen();
        Execution<?> execution = new Execution<>(this, definition, timeout);
        executions.add(execution);
        try {
            return execution.run();
        } finally {
            executions.remove(execution);
        }
    }

    /**
     * Runs {@link #execute(SourceDefinition)} on a thread of its own.
     *
     * @param definition a definition of this bus whose source has a fingerprint
     * @return the result to come; it completes exceptionally with what {@code execute} would throw
     */
    public java.util.concurrent.CompletableFuture<ExecutionResult> executeAsync(SourceDefinition<?> definition) {
        java.util.concurrent.CompletableFuture<ExecutionResult> result = new java.util.concurrent.CompletableFuture<>();
        Thread runner = new Thread(() -> {
            try {
                result.complete(execute(definition));
            } catch (Throwable failure) {
                result.completeExceptionally(failure);
            }
        }, "localqueue-bus-execution-" + name);
        runner.setDaemon(true);
        runner.start();
        return result;
    }

    /**
     * Returns a subscription the topology declares.
     *
     * @param name the subscription's name
     * @return the subscription, the same object on every call
     * @throws IllegalArgumentException when the topology does not declare it
     */
    public Subscription subscription(String name) {
        if (name == null || !topology.hasSubscription(name)) {
            throw new IllegalArgumentException("subscription '" + name + "' is not declared by the topology of bus '"
                    + this.name + "'; declared: " + topology.subscriptionNames());
        }
        return subscriptionObject(name);
    }

    /**
     * Starts consuming every subscription that has a handler in this process, each on its own threads; its
     * settings freeze. Called while the bus consumes, it starts only the subscriptions that gained their first
     * handler since (a handler added to a consuming subscription takes part at once).
     */
    public void start() {
        synchronized (lifecycle) {
            ensureOpen();
            started = true;
            if (subscriptions.values().stream().anyMatch(Subscription::hasHandlers)) {
                ensureTables();
            }
            for (String subscriptionName : topology.subscriptionNames()) {
                Subscription subscription = subscriptions.get(subscriptionName);
                if (subscription != null && subscription.hasHandlers() && !consumers.containsKey(subscriptionName)) {
                    subscription.config().freeze();
                    RetryPolicy retry = subscription.config().retry();
                    QueueEngine claims = new QueueEngine(database, fanout.queueOf(subscriptionName), delivery,
                            durability, 0, clock, retry == null ? 0 : retry.maxAttempts());
                    SubscriptionConsumer consumer = new SubscriptionConsumer(this, subscription, claims);
                    consumers.put(subscriptionName, consumer);
                    consumer.start();
                }
            }
        }
    }

    /**
     * Consumes until every subscription with a handler here has had nothing to do for {@code idleTimeout}, then
     * stops; for scripts and tests that drain what is there.
     *
     * @param idleTimeout how long the subscriptions must stay idle
     * @throws IllegalStateException when already started
     */
    public void run(Duration idleTimeout) {
        long idleNanos = io.localqueue.internal.time.Durations.requirePositiveMillis(idleTimeout, "idleTimeout")
                * 1_000_000L;
        synchronized (lifecycle) {
            if (started) {
                throw new IllegalStateException("bus '" + name + "' consumes already; run(…) starts and stops it");
            }
            start();
        }
        try {
            while (!closed && !consumers.values().stream().allMatch(consumer -> consumer.idleFor(idleNanos))) {
                Thread.sleep(10);
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        } finally {
            stop();
        }
    }

    /**
     * Stops consuming, waiting up to {@link #DEFAULT_SHUTDOWN_TIMEOUT} for running handlers; deliveries not yet
     * started are handed back at once. The bus can still dispatch, and start again.
     *
     * @return true when every handler finished in time
     */
    public boolean stop() {
        return stop(DEFAULT_SHUTDOWN_TIMEOUT);
    }

    /**
     * Stops consuming, waiting up to {@code timeout} for running handlers, then interrupting those still running:
     * their deliveries are handed back without being counted. First it ends the executions running in this process
     * (within the same wait): each settles its batch in flight, releases its source lease and throws
     * {@link ExecutionStoppedException} to its caller, so that the next {@code execute} resumes it at once.
     *
     * @param timeout the longest wait, zero or more
     * @return true when every handler finished in time
     */
    public boolean stop(Duration timeout) {
        io.localqueue.internal.time.Durations.requireNonNegativeMillis(timeout, "timeout");
        long deadline = System.nanoTime() + timeout.toNanos();
        endExecutions(deadline);
        return stopConsumers(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
    }

    /** Asks every execution running here to end, and waits for their calls to return, until the deadline. */
    private void endExecutions(long deadlineNanos) {
        if (executions.isEmpty()) {
            return;
        }
        executions.forEach(Execution::requestStop);
        try {
            while (!executions.isEmpty() && System.nanoTime() - deadlineNanos < 0) {
                Thread.sleep(10);
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private boolean stopConsumers(Duration timeout) {
        synchronized (lifecycle) {
            boolean drained = SubscriptionConsumer.stopAll(consumers.values(), timeout);
            consumers.clear();
            started = false;
            return drained;
        }
    }

    /**
     * Tells whether the bus consumes in this process: started, and not stopped or closed since.
     *
     * @return true while consuming
     */
    public boolean isRunning() {
        return started && !closed;
    }

    /**
     * Reads where each execution that a call in this process runs right now stands, counted as it is read; an
     * execution is listed from the moment it is open until its call returns.
     *
     * @return the running executions, in no particular order; empty when none runs
     */
    public List<ExecutionResult> runningExecutions() {
        List<ExecutionResult> running = new ArrayList<>();
        for (Execution<?> execution : executions) {
            ExecutionResult progress = execution.progress();
            if (progress != null) {
                running.add(progress);
            }
        }
        return running;
    }

    /**
     * Lists every execution of this bus the file stores, running or complete, oldest first, without counting their
     * deliveries, so the read stays cheap however big they are; executions of other buses are not listed.
     *
     * @return the executions; empty when none was ever run
     * @since 0.1.0
     */
    public List<ExecutionSummary> executions() {
        return storedExecutions().stream().map(ExecutionSummary::of).toList();
    }

    /**
     * Deletes a complete execution of this bus (its source read to the end, none of its deliveries ready or in
     * progress), so that a {@code purge} of its subscriptions may delete its acknowledged deliveries and, when asked,
     * its dead letters. Its deliveries, dead letters and checkpoint stay (a dead letter can still be replayed, and
     * reopens nothing), and executing its definition again is refused until its checkpoint is reset. Each step
     * releases at most 5,000 deliveries in a transaction of its own (about 10 to 30 ms of the write lock on a
     * SQLite file); a deletion that fails half-way is finished by calling again.
     *
     * @param executionId the execution, as {@link ExecutionResult#executionId()} and {@link #executions()} give it
     * @return false when this bus has no execution with that id: never stored, deleted already, or another bus's
     * @throws IllegalStateException when the execution is not complete, or a call of {@code execute} in this process
     *                               runs it; the message says which, and how far it stands
     * @throws IllegalArgumentException when the id is null
     * @since 0.1.0
     */
    public boolean deleteExecution(UUID executionId) {
        if (executionId == null) {
            throw new IllegalArgumentException("executionId must not be null");
        }
        ensureOpen();
        return deletions.delete(executionId);
    }

    /**
     * Deletes, as {@link #deleteExecution(UUID)} does, every execution of this bus that completed at least
     * {@code olderThan} ago; incomplete ones and those a call in this process runs are kept. An execution that
     * completed while no {@code execute} call waited for it is found complete now, so it goes with a later call
     * (at once with {@link Duration#ZERO}).
     *
     * @param olderThan how long ago an execution must have completed, zero or more
     * @return how many executions were deleted
     * @throws IllegalArgumentException when {@code olderThan} is null or negative
     * @since 0.1.0
     */
    public int deleteCompletedExecutions(Duration olderThan) {
        io.localqueue.internal.time.Durations.requireNonNegativeMillis(olderThan, "olderThan");
        ensureOpen();
        return deletions.deleteCompleted(olderThan);
    }

    /**
     * Ends the executions running here and stops consuming, as {@link #stop()} does, then releases the file; a second
     * call does nothing.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        // Outside the lock: an ending execution takes it to stop the consumers it started.
        long deadline = System.nanoTime() + DEFAULT_SHUTDOWN_TIMEOUT.toNanos();
        endExecutions(deadline);
        synchronized (lifecycle) {
            if (closed) {
                return;
            }
            stopConsumers(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
            closed = true;
            engines.values().forEach(QueueEngine::close);
            database.close();
        }
    }

    @Override
    public String toString() {
        return "EventBus[" + name + " on " + store().location() + "]";
    }

    // --- for the bus's own classes ---

    EventCodec codec() {
        return codec;
    }

    DeliveryObserver observer() {
        return observer;
    }

    /** Returns this process's consumer of a subscription, or null when it does not consume here. */
    @Nullable SubscriptionConsumer consumerOf(String subscription) {
        return consumers.get(subscription);
    }

    Fanout fanout() {
        return fanout;
    }

    DeliveryPolicy delivery() {
        return delivery;
    }

    boolean requiresSubscribers() {
        return requireSubscribers;
    }

    /** Encodes and routes events with the topology of the moment, as children of {@code parent} when given. */
    Fanout.Plan plan(List<?> events, @Nullable EventMetadata parent) {
        return fanout.plan(events, topology, parent, this::budgetOf, clock);
    }

    /**
     * Runs the write of a plan inside the dispatch interceptor, with the headers it passes on (checked) on every
     * delivery of the plan.
     *
     * @param inherited the headers the deliveries get unless the interceptor passes others
     * @param emittedBy the delivery whose handler returned the plan's events, or null
     * @throws IllegalArgumentException when the headers cannot be stored as given; nothing is written
     */
    <R> R intercepted(Fanout.Plan plan, Map<String, String> inherited, @Nullable EventContext emittedBy,
                      Function<Fanout.Plan, R> write) {
        Dispatch dispatch = new Dispatch(name, plan.eventTypes(), inherited, emittedBy);
        return interceptor.intercept(dispatch, headers -> write.apply(plan.withHeaders(
                StoredHeaders.require(Dispatch.copyOf(headers), "headers"))));
    }

    /** Refuses a plan with an event nothing routes, on a bus that requires subscribers. */
    void requireRouted(Fanout.Plan plan) {
        if (requireSubscribers && !plan.unrouted().isEmpty()) {
            throw new NoSubscribersException(plan.unrouted().get(0));
        }
    }

    /**
     * Acknowledges a delivery and stores the deliveries of its handler's events, with the edges from it to them, in
     * one transaction inside the dispatch interceptor, the children inheriting the delivery's headers unless the
     * interceptor passes others; nothing is stored when its lease is gone.
     *
     * @param parent the delivery whose handler returned the events
     * @return false when the lease was gone
     * @throws DeduplicationConflictException when an emitted identity is stored with another payload; the
     *                                        acknowledgement rolls back too
     */
    boolean emit(String queue, long id, String receipt, Fanout.Plan planned, EventContext parent) {
        ensureTables();
        return intercepted(planned, parent.headers(), parent, plan -> {
            Delivered delivered = store().write(WriteOptions.standard("acknowledge and emit", durability), ensureOpen,
                    writes -> {
                        long now = clock.millis();
                        FencedResults acked = writes.settle(List.of(Settlement.ack(queue, id, receipt, now)),
                                List.of());
                        if (acked.outcomes().get(0) == JobOutcome.DISCARDED) {
                            return null;
                        }
                        Delivered children = Fanout.write(writes, plan, now);
                        writes.linkDeliveries(id, children.ids());
                        return children;
                    });
            if (delivered == null) {
                return false;
            }
            signal(plan);
            store().wakeups().signal(queue);
            return true;
        });
    }

    /** Adds a handler for a class the subscription's routes match already, leaving routing as it is. */
    void addRoutedHandler(Subscription target, Class<?> type, EventHandler<?> handler) {
        synchronized (lifecycle) {
            ensureOpen();
            String typeName = requireHandled(type, handler);
            if (!topology.routes(target.name(), typeName)) {
                throw new IllegalArgumentException("subscription '" + target.name() + "' does not route '" + typeName
                        + "'; add the route to the topology or use EventBus.handler(type, subscription, handler)");
            }
            target.put(typeName, castHandler(handler));
        }
    }

    /** Starts this process's consumers for an execution unless they run already; the last user stops them. */
    void acquireRunner() {
        synchronized (lifecycle) {
            if (!started) {
                boolean handlers = subscriptions.values().stream().anyMatch(Subscription::hasHandlers);
                if (!handlers) {
                    return;
                }
                start();
                managedRunner = true;
            }
            if (managedRunner) {
                runnerUsers++;
            }
        }
    }

    /**
     * Stops the consumers an execution started, once no execution uses them: after a completed execution they
     * drain as {@link #stop()} does, after a failed or timed-out one they are interrupted at once.
     */
    void releaseRunner(boolean drain) {
        synchronized (lifecycle) {
            if (managedRunner && --runnerUsers == 0) {
                managedRunner = false;
                stopConsumers(drain ? DEFAULT_SHUTDOWN_TIMEOUT : Duration.ZERO);
            }
        }
    }

    <R> R writeExecution(String what, StoreWork<R> work) {
        ensureTables();
        return store().write(WriteOptions.standard(what, durability), ensureOpen, work);
    }

    boolean executionPending(String executionId) {
        ensureOpen();
        return store().executionPending(executionId);
    }

    /** Lists the stored executions of this bus, reading only. */
    List<ExecutionRow> storedExecutions() {
        ensureOpen();
        return store().executions(name);
    }

    /** Tells whether a call of {@code execute} in this process runs the execution with a stored id. */
    boolean runsHere(String executionId) {
        return executions.stream().anyMatch(execution -> execution.runs(executionId));
    }

    Duration executionLease() {
        return executionLease;
    }

    /** Runs one ingestion batch's transaction. */
    Ingestion.Committed writeIngestion(StoreWork<Ingestion.Committed> work) {
        ensureTables();
        return store().write(WriteOptions.standard("ingest", durability), ensureOpen, work);
    }

    @Nullable StoredCheckpoint readCheckpoint(String checkpoint) {
        ensureTables();
        return store().write(WriteOptions.standard("read a checkpoint", durability), ensureOpen,
                writes -> writes.checkpoint(name, checkpoint));
    }

    boolean deleteCheckpoint(String checkpoint) {
        ensureTables();
        return store().write(WriteOptions.standard("reset a checkpoint", durability), ensureOpen,
                writes -> writes.deleteCheckpoint(name, checkpoint));
    }

    long now() {
        return clock.millis();
    }

    /** Returns the engine of a subscription's queue, made on first use. */
    QueueEngine engineOf(Subscription subscription) {
        ensureOpen();
        return engines.computeIfAbsent(fanout.queueOf(subscription.name()),
                queue -> new QueueEngine(database, queue, delivery, durability, 0, clock));
    }

    private int budgetOf(String subscription) {
        Subscription known = subscriptions.get(subscription);
        RetryPolicy retry = known == null ? null : known.config().retry();
        return retry == null ? delivery.maxAttempts() : retry.maxAttempts();
    }

    void signal(Fanout.Plan plan) {
        for (String queue : plan.queues()) {
            store().wakeups().signal(queue);
        }
    }

    private Subscription subscriptionObject(String subscriptionName) {
        return subscriptions.computeIfAbsent(subscriptionName, n -> new Subscription(this, n, concurrency));
    }

    private String requireHandled(Class<?> type, @Nullable Object handler) {
        if (handler == null) {
            throw new IllegalArgumentException("handler must not be null");
        }
        EventType eventType = registry.register(type);
        EventCodec.requireIdentityFields(eventType);
        return eventType.name();
    }

    @SuppressWarnings("unchecked")
    private static EventHandler<Object> castHandler(EventHandler<?> handler) {
        return (EventHandler<Object>) handler;
    }

    private static void requireTransform(@Nullable Function<?, ?> transform) {
        if (transform == null) {
            throw new IllegalArgumentException("transform must not be null");
        }
    }

    private static void requireCheckpointName(@Nullable String checkpoint) {
        if (checkpoint == null || checkpoint.isBlank()) {
            throw new IllegalArgumentException("checkpoint must not be blank");
        }
    }

    private static Object requireEvent(@Nullable Object event) {
        if (event == null) {
            throw new IllegalArgumentException("event must not be null");
        }
        return event;
    }

    private void ensureOpen() {
        if (closed) {
            throw new QueueClosedException("event bus '" + name + "' is closed");
        }
    }

    private QueueStore store() {
        return database.store();
    }

    /**
     * Configures an {@link EventBus}; every setter validates at once and names the bad parameter.
     *
     * @since 0.1.0
     */
    public static final class Builder {

        private final Supplier<Database> database;
        private String name = DEFAULT_NAME;
        private BusTopology topology = BusTopology.empty();
        private DeliveryPolicy delivery = DeliveryPolicy.defaults();
        private DurabilityMode durability = DurabilityMode.RELAXED;
        private boolean requireSubscribers = true;
        private int concurrency = 1;
        private JsonMapper mapper = JsonSerializer.defaultMapper();
        private Clock clock = Clock.systemUTC();
        private Duration executionLease = DEFAULT_EXECUTION_LEASE;
        private DeliveryObserver observer = DeliveryObserver.NONE;
        private DispatchInterceptor interceptor = DispatchInterceptor.NONE;

        private Builder(Supplier<Database> database) {
            this.database = database;
        }

        /**
         * Sets the bus's name, which every process sharing the bus must use.
         *
         * @param name letters, digits, '_', '.' and '-', starting with a letter or digit
         * @return this builder
         * @throws IllegalArgumentException when invalid
         */
        public Builder name(String name) {
            this.name = Names.requireValid(name, "name");
            return this;
        }

        /**
         * Sets the static routes; every producer of the bus must route alike, since routes are not stored.
         *
         * @param topology the routes
         * @return this builder
         * @throws IllegalArgumentException when null
         */
        public Builder topology(BusTopology topology) {
            if (topology == null) {
                throw new IllegalArgumentException("topology must not be null");
            }
            this.topology = topology;
            return this;
        }

        /**
         * Sets the lease of deliveries and the budget of subscriptions without a retry policy.
         *
         * @param delivery the policy
         * @return this builder
         * @throws IllegalArgumentException when null
         */
        public Builder delivery(DeliveryPolicy delivery) {
            if (delivery == null) {
                throw new IllegalArgumentException("delivery must not be null");
            }
            this.delivery = delivery;
            return this;
        }

        /**
         * Sets how the bus's commits reach the disk.
         *
         * @param durability the mode
         * @return this builder
         * @throws IllegalArgumentException when null
         */
        public Builder durability(DurabilityMode durability) {
            if (durability == null) {
                throw new IllegalArgumentException("durability must not be null");
            }
            this.durability = durability;
            return this;
        }

        /**
         * Sets whether dispatching an event nothing routes is an error (the default) or stores nothing quietly.
         *
         * @param require true to throw {@link NoSubscribersException}
         * @return this builder
         */
        public Builder requireSubscribers(boolean require) {
            this.requireSubscribers = require;
            return this;
        }

        /**
         * Sets how many handlers of each subscription run at once in this process, unless its config says.
         *
         * @param concurrency at least 1
         * @return this builder
         * @throws IllegalArgumentException when under 1
         */
        public Builder concurrency(int concurrency) {
            if (concurrency < 1) {
                throw new IllegalArgumentException("concurrency must be at least 1, got " + concurrency);
            }
            this.concurrency = concurrency;
            return this;
        }

        /**
         * Sets the mapper of payloads, rebuilt to write the Python library's spelling.
         *
         * @param mapper the mapper
         * @return this builder
         * @throws IllegalArgumentException when null
         */
        public Builder jsonMapper(JsonMapper mapper) {
            this.mapper = JsonSerializer.withPythonSpelling(mapper);
            return this;
        }

        /**
         * Sets the clock that stamps rows and events and decides lease expiry, for tests.
         *
         * @param clock the clock
         * @return this builder
         * @throws IllegalArgumentException when null
         */
        public Builder clock(Clock clock) {
            if (clock == null) {
                throw new IllegalArgumentException("clock must not be null");
            }
            this.clock = clock;
            return this;
        }

        /**
         * Sets how long an execution's hold on its source lasts without renewal: its heartbeat renews it every third
         * of that, and after a crash another process resumes the execution once it ran out.
         *
         * @param lease at least one millisecond
         * @return this builder
         * @throws IllegalArgumentException when shorter
         */
        public Builder executionLease(Duration lease) {
            io.localqueue.internal.time.Durations.requirePositiveMillis(lease, "executionLease");
            this.executionLease = lease;
            return this;
        }

        /**
         * Sets who is told of every delivery this process's consumers finish, for metrics.
         *
         * @param observer the observer
         * @return this builder
         * @throws IllegalArgumentException when null
         */
        public Builder observer(DeliveryObserver observer) {
            if (observer == null) {
                throw new IllegalArgumentException("observer must not be null");
            }
            this.observer = observer;
            return this;
        }

        /**
         * Sets what runs around every write that stores deliveries (dispatches, ingestion batches, a handler's
         * events), such as an observation whose trace context becomes the deliveries' headers; by default
         * {@link DispatchInterceptor#NONE}, under which a handler's events keep the headers of the delivery that
         * emitted them and every other delivery has none.
         *
         * @param interceptor the interceptor; {@link DispatchInterceptor#of} combines several
         * @return this builder
         * @throws IllegalArgumentException when null
         * @since 0.1.0
         */
        public Builder dispatchInterceptor(DispatchInterceptor interceptor) {
            if (interceptor == null) {
                throw new IllegalArgumentException("interceptor must not be null");
            }
            this.interceptor = interceptor;
            return this;
        }

        /**
         * Opens the bus; its own tables are created in the file when first needed (a consumer, an ingestion, an
         * execution), so a bus that only dispatches leaves the file as a queue leaves it.
         *
         * @return the bus
         * @throws io.localqueue.LocalQueueException when the file cannot be opened or is not a localqueue database
         */
        public EventBus build() {
            Database database = this.database.get();
            try {
                return new EventBus(this, database);
            } catch (RuntimeException failure) {
                database.close();
                throw failure;
            }
        }
    }
}
