package io.localqueue.spring;

import io.localqueue.JsonSerializer;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.Serializer;
import io.localqueue.SimpleQueue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.beans.factory.DisposableBean;

/**
 * The application's queues on the shared database: opens each queue once per payload type, with its configured
 * delivery policy and pending-job limit, and closes them all when the context closes. Payloads are JSON.
 *
 * @since 0.1.0
 */
public class LocalQueueRegistry implements DisposableBean {

    private final LocalQueueDatabase database;
    private final QueueSettings settings;
    private final Map<Key, SimpleQueue<?>> queues = new ConcurrentHashMap<>();
    private final Set<String> used = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    /**
     * Creates the registry.
     *
     * @param database the shared database
     * @param settings how each queue is opened
     */
    public LocalQueueRegistry(LocalQueueDatabase database, QueueSettings settings) {
        this.database = database;
        this.settings = settings;
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
        return (SimpleQueue<T>) queues.computeIfAbsent(key(name, type), key -> open(name, JsonSerializer.of(type)));
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
        return (SimpleQueue<byte[]>) queues.computeIfAbsent(key(name, SerializedJson.class),
                key -> open(name, SerializedJson.INSTANCE));
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
    private Key key(String name, Class<?> type) {
        if (closed) {
            throw new IllegalStateException("localqueue registry is closed");
        }
        used.add(name);
        return new Key(name, type);
    }

    private <T> SimpleQueue<T> open(String name, Serializer<T> serializer) {
        SimpleQueue.Builder<T> builder = SimpleQueue.builder(database, serializer)
                .name(name)
                .delivery(settings.deliveryFor(name))
                .durability(settings.durability());
        OptionalLong limit = settings.maxPendingJobsFor(name);
        if (limit.isPresent()) {
            builder.maxPendingJobs(limit.getAsLong());
        }
        return builder.build();
    }

    private record Key(String name, Class<?> type) {
    }
}
