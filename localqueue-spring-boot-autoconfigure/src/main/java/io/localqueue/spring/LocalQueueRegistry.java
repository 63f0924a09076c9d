package io.localqueue.spring;

import io.localqueue.JsonSerializer;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.SimpleQueue;
import java.time.Clock;
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
    private final Clock clock;
    private final Map<Key, SimpleQueue<?>> queues = new ConcurrentHashMap<>();
    private final Set<String> used = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    /**
     * Creates the registry on the system clock.
     *
     * @param database the shared database
     * @param settings how each queue is opened
     */
    public LocalQueueRegistry(LocalQueueDatabase database, QueueSettings settings) {
        this(database, settings, Clock.systemUTC());
    }

    /**
     * Creates the registry with the clock its queues stamp rows with and decide due times and lease expiry by; waits
     * still take real time, so a test clock moved forward is seen by a waiting listener at its next poll.
     *
     * @param database the shared database
     * @param settings how each queue is opened
     * @param clock the queues' clock
     * @since 0.1.0
     */
    public LocalQueueRegistry(LocalQueueDatabase database, QueueSettings settings, Clock clock) {
        this.database = database;
        this.settings = settings;
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
        if (closed) {
            throw new IllegalStateException("localqueue registry is closed");
        }
        used.add(name);
        return (SimpleQueue<T>) queues.computeIfAbsent(new Key(name, type), key -> open(name, type));
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

    private <T> SimpleQueue<T> open(String name, Class<T> type) {
        SimpleQueue.Builder<T> builder = SimpleQueue.builder(database, JsonSerializer.of(type))
                .name(name)
                .delivery(settings.deliveryFor(name))
                .durability(settings.durability())
                .clock(clock);
        OptionalLong limit = settings.maxPendingJobsFor(name);
        if (limit.isPresent()) {
            builder.maxPendingJobs(limit.getAsLong());
        }
        return builder.build();
    }

    private record Key(String name, Class<?> type) {
    }
}
