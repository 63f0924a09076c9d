package io.localqueue.bus;

import io.localqueue.DeduplicationConflictException;
import io.localqueue.DeliveryPolicy;
import io.localqueue.DurabilityMode;
import io.localqueue.InvalidArgumentException;
import io.localqueue.JsonSerializer;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.QueueClosedException;
import io.localqueue.SimpleQueue;
import io.localqueue.internal.engine.Database;
import io.localqueue.internal.engine.DatabaseHandles;
import io.localqueue.internal.engine.RetentionPolicy;
import io.localqueue.internal.time.Durations;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
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
    public static final Duration DEFAULT_SHUTDOWN_TIMEOUT = BusConsumers.DEFAULT_DRAIN;

    private final BusRuntime runtime;
    private final Dispatcher dispatcher;
    private final BusConsumers consumers;
    private final BusExecutions executions;

    private EventBus(BusSettings settings, Database database) {
        this.runtime = new BusRuntime(settings, database);
        this.dispatcher = new Dispatcher(runtime);
        this.consumers = new BusConsumers(dispatcher);
        this.executions = new BusExecutions(dispatcher, consumers);
        Duration executionsKept = Duration.ofMillis(settings.retention().ackedMillis());
        for (String subscription : settings.topology().subscriptionNames()) {
            runtime.engineOf(subscription).keepFinished(settings.retention(),
                    () -> executions.deleteCompleted(executionsKept));
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
            throw new InvalidArgumentException("directory", "directory must not be null");
        }
        return new Builder(() -> {
            try (LocalQueueDatabase handle = LocalQueueDatabase.open(directory)) {
                return DatabaseHandles.retain(LocalQueueDatabase.class, handle);
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
            throw new InvalidArgumentException("database", "database must not be null");
        }
        if (database.isClosed()) {
            throw new IllegalArgumentException("database " + database + " is closed");
        }
        return new Builder(() -> DatabaseHandles.retain(LocalQueueDatabase.class, database));
    }

    /**
     * Returns the bus's name, part of every subscription's queue name.
     *
     * @return the name
     */
    public String name() {
        return runtime.name();
    }

    /**
     * Returns the routes of the moment, including those handler registrations added.
     *
     * @return the topology
     */
    public BusTopology topology() {
        return runtime.topology();
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
        runtime.register(type);
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
            throw new InvalidArgumentException("events", "events must not be null");
        }
        return dispatcher.dispatchAll(events);
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
            throw new InvalidArgumentException("source", "source must not be null");
        }
        requireTransform(transform);
        runtime.ensureOpen();
        return Ingestion.of(dispatcher, source, transform).run();
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
            throw new InvalidArgumentException("source", "source must not be null");
        }
        requireCheckpointName(checkpoint);
        requireTransform(transform);
        if (batchSize < 1) {
            throw new InvalidArgumentException("batchSize", "batchSize must be at least 1, got " + batchSize);
        }
        if (maxPending < 0) {
            throw new InvalidArgumentException("maxPending", "maxPending must be positive, or 0 for none, got " + maxPending);
        }
        runtime.ensureOpen();
        return Ingestion.resumable(dispatcher, source, checkpoint, transform, batchSize, maxPending,
                Ingestion.BatchHook.NONE, () -> false).run();
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
            throw new InvalidArgumentException("source", "source must not be null");
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
        return new IngestionCheckpoint(runtime, name);
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
        return consumers.handler(type, subscription, handler);
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
            throw new InvalidArgumentException("pattern", "pattern must not be blank");
        }
        if (handler == null) {
            throw new InvalidArgumentException("handler", "handler must not be null");
        }
        return consumers.on(pattern, subscription, handler);
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
            throw new InvalidArgumentException("definition", "definition must be one of this bus's, made by its source(…)");
        }
        if (timeout != null) {
            io.localqueue.internal.time.Durations.requirePositiveMillis(timeout, "timeout");
        }
        return executions.run(definition.spec(), timeout);
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
        }, "localqueue-bus-execution-" + runtime.name());
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
        return consumers.declared(name);
    }

    /**
     * Starts consuming every subscription that has a handler in this process, each on its own threads; its
     * settings freeze. Called while the bus consumes, it starts only the subscriptions that gained their first
     * handler since (a handler added to a consuming subscription takes part at once).
     */
    public void start() {
        consumers.start();
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
        try {
            consumers.runUntilIdle(idleNanos);
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
        executions.endAll(deadline);
        return consumers.stop(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
    }

    /**
     * Tells whether the bus consumes in this process: started, and not stopped or closed since.
     *
     * @return true while consuming
     */
    public boolean isRunning() {
        return consumers.isRunning();
    }

    /**
     * Reads where each execution that a call in this process runs right now stands, counted as it is read; an
     * execution is listed from the moment it is open until its call returns.
     *
     * @return the running executions, in no particular order; empty when none runs
     */
    public List<ExecutionResult> runningExecutions() {
        return executions.progress();
    }

    /**
     * Lists every execution of this bus the file stores, running or complete, oldest first, without counting their
     * deliveries, so the read stays cheap however big they are; executions of other buses are not listed.
     *
     * @return the executions; empty when none was ever run
     * @since 0.1.0
     */
    public List<ExecutionSummary> executions() {
        return executions.summaries();
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
            throw new InvalidArgumentException("executionId", "executionId must not be null");
        }
        return executions.delete(executionId);
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
        return executions.deleteCompleted(olderThan);
    }

    /**
     * Runs one subscription's retention now on the caller's thread, for tests: the completed executions old enough
     * first, then the finished deliveries.
     *
     * @return how many deliveries were deleted, or -1 when another process had the turn
     */
    long runRetention(String subscription) {
        return runtime.engineOf(subscription).runRetention();
    }

    /**
     * Ends the executions running here and stops consuming, as {@link #stop()} does, then releases the file; a second
     * call does nothing.
     */
    @Override
    public void close() {
        if (runtime.isClosed()) {
            return;
        }
        // Ending executions stop the consumers they started, so they end before the consumers' lock is taken.
        long deadline = System.nanoTime() + DEFAULT_SHUTDOWN_TIMEOUT.toNanos();
        executions.endAll(deadline);
        consumers.close(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
    }

    @Override
    public String toString() {
        return "EventBus[" + runtime.name() + " on " + runtime.location() + "]";
    }

    /** The writes of this bus's deliveries, for the tests of the package. */
    Dispatcher dispatcher() {
        return dispatcher;
    }

    private static void requireTransform(@Nullable Function<?, ?> transform) {
        if (transform == null) {
            throw new InvalidArgumentException("transform", "transform must not be null");
        }
    }

    private static void requireCheckpointName(@Nullable String checkpoint) {
        if (checkpoint == null || checkpoint.isBlank()) {
            throw new InvalidArgumentException("checkpoint", "checkpoint must not be blank");
        }
    }

    private static Object requireEvent(@Nullable Object event) {
        if (event == null) {
            throw new InvalidArgumentException("event", "event must not be null");
        }
        return event;
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
        private RetentionPolicy retention = new RetentionPolicy(SimpleQueue.DEFAULT_ACKED_RETENTION.toMillis(),
                RetentionPolicy.KEEP);

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
                throw new InvalidArgumentException("topology", "topology must not be null");
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
                throw new InvalidArgumentException("delivery", "delivery must not be null");
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
                throw new InvalidArgumentException("durability", "durability must not be null");
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
                throw new InvalidArgumentException("concurrency", "concurrency must be at least 1, got " + concurrency);
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
                throw new InvalidArgumentException("clock", "clock must not be null");
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
                throw new InvalidArgumentException("observer", "observer must not be null");
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
                throw new InvalidArgumentException("interceptor", "interceptor must not be null");
            }
            this.interceptor = interceptor;
            return this;
        }

        /**
         * Sets how long the subscriptions' finished deliveries, and the executions that completed, are kept before
         * they are deleted in the background, as {@link SimpleQueue.Builder#retention(Duration, Duration)} keeps a
         * queue's jobs: by default acknowledged deliveries and completed executions 7 days, dead letters until
         * purged. A delivery an execution reports on is kept while the execution is.
         *
         * @param acked how long after its acknowledgement a delivery, and after its completion an execution, is kept
         * @param failed how long a dead letter is kept, or null to keep it until purged or retried
         * @return this builder
         * @throws InvalidArgumentException naming {@code acked} or {@code failed} when it is null (acked) or negative
         * @since 0.1.0
         */
        public Builder retention(Duration acked, @Nullable Duration failed) {
            this.retention = new RetentionPolicy(Durations.requireNonNegativeMillis(acked, "acked"),
                    failed == null ? RetentionPolicy.KEEP : Durations.requireNonNegativeMillis(failed, "failed"));
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
                return new EventBus(new BusSettings(name, topology, delivery, durability, requireSubscribers,
                        concurrency, mapper, clock, executionLease, observer, interceptor, retention), database);
            } catch (RuntimeException failure) {
                database.close();
                throw failure;
            }
        }
    }
}
