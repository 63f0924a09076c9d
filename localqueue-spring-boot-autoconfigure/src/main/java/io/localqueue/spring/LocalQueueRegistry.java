package io.localqueue.spring;

import io.localqueue.EnqueueItem;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.QueueLimit;
import io.localqueue.Serializer;
import io.localqueue.SimpleQueue;
import java.lang.reflect.Type;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.SmartLifecycle;

/**
 * The application's queues on the shared database: opens each queue once per payload type (generic type arguments
 * included), with its configured delivery policy and pending-job limit and the serializer {@link PayloadSerializers}
 * chooses, and closes them all when the context closes. The configured limits of the queues are stored as theirs, for
 * every process, when the registry starts ({@link #PHASE}), and a queue first configured later stores them as it
 * opens: a start that fails before then leaves the limits the running instances obey as they are.
 *
 * @since 0.1.0
 */
public class LocalQueueRegistry implements SmartLifecycle, DisposableBean {

    /**
     * The lifecycle phase the configured limits are stored in: after web servers and ordinary lifecycle beans start,
     * just before the queue listeners ({@code QueueListenerEndpointRegistry.PHASE}) claim.
     *
     * @since 0.1.0
     */
    public static final int PHASE = Integer.MAX_VALUE - 1001;

    private final LocalQueueDatabase database;
    private final QueueSettings settings;
    private final PayloadSerializers serializers;
    private final Clock clock;
    private final ConcurrencyKeys concurrencyKeys;
    /** The key type of the queue objects that write bytes a JSON serializer made; no Java type is named so. */
    private static final String SERIALIZED = "serialized JSON";

    private final Map<Key, SimpleQueue<?>> queues = new ConcurrentHashMap<>();
    private final Set<String> used = ConcurrentHashMap.newKeySet();
    /** Whether the configured limits were stored; queues opened since store theirs as they open. */
    private volatile boolean started;
    private volatile boolean closed;

    /**
     * Creates the registry on the system clock.
     *
     * @param database the shared database
     * @param settings how each queue is opened
     */
    public LocalQueueRegistry(LocalQueueDatabase database, QueueSettings settings) {
        this(database, settings, PayloadSerializers.json(), Clock.systemUTC());
    }

    /**
     * Creates the registry with the serializers of the application's choice, on the system clock.
     *
     * @param database the shared database
     * @param settings how each queue is opened
     * @param serializers the serializer of each queue and payload type
     * @since 0.1.0
     */
    public LocalQueueRegistry(LocalQueueDatabase database, QueueSettings settings, PayloadSerializers serializers) {
        this(database, settings, serializers, Clock.systemUTC());
    }

    /**
     * Creates the registry with the clock its queues stamp rows with and decide due times and lease expiry by; waits
     * still take real time, so a test clock moved forward is seen by a waiting listener at its next poll.
     *
     * @param database the shared database
     * @param settings how each queue is opened
     * @param serializers the serializer of each queue and payload type
     * @param clock the queues' clock
     * @since 0.1.0
     */
    public LocalQueueRegistry(LocalQueueDatabase database, QueueSettings settings, PayloadSerializers serializers,
                              Clock clock) {
        this.concurrencyKeys = ConcurrencyKeys.of(settings);
        this.database = database;
        this.settings = settings;
        this.serializers = serializers;
        this.clock = clock;
    }

    /**
     * Returns the queue with payloads mapped to {@code type}, opening it on first use.
     *
     * @param name the queue name
     * @param type the payload class
     * @param <T> the payload type
     * @return the shared queue object; do not close it
     * @throws IllegalStateException once the registry is closed
     */
    @SuppressWarnings("unchecked")
    public <T> SimpleQueue<T> queue(String name, Class<T> type) {
        return (SimpleQueue<T>) queue(name, (Type) type);
    }

    /**
     * Returns the queue with payloads mapped to a generic type, such as {@code List<Email>}, opening it on first use.
     *
     * @param name the queue name
     * @param type a class, or a parameterized type whose arguments are all resolved
     * @return the shared queue object; do not close it
     * @throws IllegalStateException once the registry is closed
     * @since 0.1.0
     */
    public SimpleQueue<?> queue(String name, Type type) {
        return queues.computeIfAbsent(key(name, type), key -> open(name, serializerFor(name, type)));
    }

    /**
     * Returns the queue for writing payloads of any type as JSON.
     *
     * @param name the queue name
     * @return the shared queue object; do not close it
     */
    public SimpleQueue<Object> queue(String name) {
        return queue(name, Object.class);
    }

    /**
     * Returns the queue for writing payloads its JSON serializer already turned into bytes, opening it on first use.
     */
    @SuppressWarnings("unchecked")
    SimpleQueue<byte[]> serializedQueue(String name) {
        return (SimpleQueue<byte[]>) queues.computeIfAbsent(key(name, SERIALIZED),
                key -> open(name, Serializer.bytes()));
    }

    /**
     * Returns how this registry opens queues.
     *
     * @return the settings
     */
    public QueueSettings settings() {
        return settings;
    }

    /**
     * Lists the application's queues: those configured, those used through this registry, and those holding
     * jobs in the file (event-bus queues excluded), in name order.
     *
     * @return the names
     */
    public List<String> queueNames() {
        Set<String> names = new TreeSet<>(settings.configuredQueues());
        names.addAll(used);
        for (String name : database.queueNames()) {
            if (!name.startsWith(LocalQueueDatabase.BUS_QUEUE_PREFIX)) {
                names.add(name);
            }
        }
        return new ArrayList<>(names);
    }

    /**
     * Counts the claims that a limit held back, of every queue object of this name the registry opened (one per
     * payload type).
     *
     * @param queue the queue name
     * @param limit the limit
     * @return how many claims it held back since the queue objects opened
     * @since 0.1.0
     */
    public long claimsHeldBy(String queue, QueueLimit limit) {
        long held = 0;
        for (Map.Entry<Key, SimpleQueue<?>> open : queues.entrySet()) {
            if (open.getKey().name().equals(queue)) {
                held += open.getValue().claimsHeldBy(limit);
            }
        }
        return held;
    }

    /**
     * Returns the clock this registry's queues run on: the system clock unless one was given.
     *
     * @return the clock
     * @since 0.1.0
     */
    public Clock clock() {
        return clock;
    }

    /**
     * Returns the shared database.
     *
     * @return the database handle
     */
    public LocalQueueDatabase database() {
        return database;
    }

    /**
     * Closes every queue this registry opened; the database stays open.
     */
    @Override
    public void destroy() {
        closed = true;
        queues.values().forEach(SimpleQueue::close);
        queues.clear();
    }

    /** Returns the key of a queue to use, refusing once closed. */
    private Key key(String name, Type type) {
        return key(name, type.getTypeName());
    }

    private Key key(String name, String typeName) {
        if (closed) {
            throw new IllegalStateException("localqueue registry is closed");
        }
        used.add(name);
        return new Key(name, typeName);
    }

    private Serializer<Object> serializerFor(String name, Type type) {
        @SuppressWarnings("unchecked")
        Serializer<Object> serializer = (Serializer<Object>) serializers.serializerFor(name, type);
        if (serializer == null) {
            throw new IllegalStateException("PayloadSerializers gave no serializer for queue '" + name + "' and type "
                    + type.getTypeName());
        }
        return serializer;
    }

    private <T> SimpleQueue<T> open(String name, Serializer<T> serializer) {
        return builder(name, serializer, started).build();
    }

    private <T> SimpleQueue.Builder<T> builder(String name, Serializer<T> serializer, boolean withLimits) {
        SimpleQueue.Builder<T> builder = SimpleQueue.builder(database, serializer)
                .name(name)
                .delivery(settings.deliveryFor(name))
                .durability(settings.durability())
                .clock(clock);
        QueueSettings.Retention retention = settings.retentionFor(name);
        builder.retention(retention.acked(), retention.failed());
        OptionalLong limit = settings.maxPendingJobsFor(name);
        if (limit.isPresent()) {
            builder.maxPendingJobs(limit.getAsLong());
        }
        QueueSettings.Limits limits = settings.limitsFor(name);
        if (!withLimits) {
            return builder;
        }
        if (limits.maxConcurrent() != null) {
            builder.maxConcurrent(limits.maxConcurrent());
        }
        if (limits.maxConcurrentPerKey() != null) {
            builder.maxConcurrentPerKey(limits.maxConcurrentPerKey());
        }
        if (limits.ratePermits() != null) {
            builder.rateLimit(limits.ratePermits(), limits.ratePermits() > 0 ? limits.ratePeriod() : Duration.ZERO);
        }
        return builder;
    }

    /**
     * Stores the configured limits of every configured queue as the queue's (building a queue object with them stores
     * them), and from then on those of each queue as it opens; once. A queue opened before has claimed under the limits
     * stored before.
     */
    @Override
    public synchronized void start() {
        if (started) {
            return;
        }
        for (String name : settings.configuredQueues()) {
            if (!settings.limitsFor(name).equals(QueueSettings.Limits.NONE)) {
                builder(name, Serializer.bytes(), true).build().close();
            }
        }
        started = true;
    }

    /** Nothing to stop: the queues close with the context ({@link #destroy()}). */
    @Override
    public void stop() {
    }

    @Override
    public boolean isRunning() {
        return started && !closed;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }

    /**
     * Gives the jobs without a concurrency key the one the queue's configured expression reads from their payload
     * ({@code localqueue.queues.<name>.concurrency-key}).
     *
     * @param queue the queue name
     * @param items the jobs about to be written
     * @return the jobs, keyed; the same list when the queue has no expression
     */
    List<EnqueueItem<Object>> withConcurrencyKeys(String queue, List<EnqueueItem<Object>> items) {
        return concurrencyKeys.keyed(queue, items);
    }

    private record Key(String name, String type) {
    }
}
