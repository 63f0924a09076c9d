package io.localqueue.bus;

import io.localqueue.FailureReason;
import io.localqueue.InvalidArgumentException;
import io.localqueue.JobNotFoundException;
import io.localqueue.JsonSerializer;
import io.localqueue.QueueClosedException;
import io.localqueue.QueueDiagnostics;
import io.localqueue.QueueStats;
import io.localqueue.internal.store.FailedRow;
import io.localqueue.internal.time.Durations;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One subscription of a bus: a durable queue ({@code __bus__:<bus>:<subscription>}) in the bus's file that receives
 * every event its routes match, consumed by every process that runs a handler for it as one consumer group. Its
 * handlers and settings are this process's; its dead letters are everyone's.
 *
 * @since 0.1.0
 */
public final class Subscription {

    /**
     * The payload format the diagnostics of a subscription's queue name: the JSON serializer's, as a Python bus
     * reports its envelopes.
     */
    public static final String SERIALIZER_IDENTITY = JsonSerializer.IDENTITY;

    private final BusRuntime bus;
    private final String name;
    private final SubscriptionConfig config;
    private final SubscriptionHandlers handlers;
    /** This process's consumer of the subscription while it consumes here; set and cleared by the bus's consumers. */
    private @Nullable SubscriptionConsumer consumer;
    private boolean paused;

    Subscription(BusRuntime bus, String name) {
        this.bus = bus;
        this.name = name;
        this.config = bus.configOf(name);
        this.handlers = new SubscriptionHandlers(name);
    }

    /**
     * Returns the subscription's name.
     *
     * @return the name
     */
    public String name() {
        return name;
    }

    /**
     * Returns the name of the subscription's queue in the file, {@code __bus__:<bus>:<subscription>}, as Python's
     * bus names it too.
     *
     * @return the queue's name
     */
    public String queueName() {
        return bus.fanout().queueOf(name);
    }

    /**
     * Returns this process's settings of the subscription, frozen once it consumes.
     *
     * @return the settings
     */
    public SubscriptionConfig config() {
        return config;
    }

    /**
     * Adds a handler for the events of a class that this subscription's routes already match; routing does not
     * change.
     *
     * @param type the event class, which is registered for reading back
     * @param handler the handler
     * @param <E> the event type
     * @return this subscription
     * @throws IllegalArgumentException when the routes do not match the type, or it has a handler here already
     * @throws QueueClosedException once the bus is closed
     */
    public <E> Subscription handler(Class<E> type, EventHandler<? super E> handler) {
        bus.ensureOpen();
        String typeName = bus.handledType(type, handler);
        bus.requireRouted(name, typeName);
        handlers.put(typeName, handler);
        return this;
    }

    /**
     * Counts the subscription's deliveries by state, across every process that shares the file; an exact count,
     * which walks the queue's index.
     *
     * @return ready, leased, acknowledged and failed deliveries
     */
    public QueueStats stats() {
        return bus.engineOf(name).stats();
    }

    /**
     * Returns the counts of the subscription's last snapshot, shared with every reader of its queue in this JVM, as
     * {@link io.localqueue.SimpleQueue#stats(Duration)} does; a snapshot older than {@code maxAge} starts a recount in
     * the background, so a frequent reader never waits for one.
     *
     * @param maxAge how old the snapshot may be before a recount starts; at least one millisecond
     * @return the counts
     * @throws IllegalArgumentException when {@code maxAge} is under one millisecond
     */
    public QueueStats stats(Duration maxAge) {
        return bus.engineOf(name).stats(Durations.requirePositiveMillis(maxAge, "maxAge"));
    }

    /**
     * Takes the subscription queue's diagnostics now (one count of its deliveries), as
     * {@link io.localqueue.SimpleQueue#diagnostics()} does; its serializer identity is {@value #SERIALIZER_IDENTITY}.
     *
     * @return the diagnostics
     */
    public QueueDiagnostics diagnostics() {
        return bus.engineOf(name).diagnostics(SERIALIZER_IDENTITY);
    }

    /**
     * Describes the subscription queue's last snapshot, recounted in the background once older than {@code maxAge},
     * as {@link io.localqueue.SimpleQueue#diagnostics(Duration)} does.
     *
     * @param maxAge how old the snapshot may be before a recount starts; at least one millisecond
     * @return the diagnostics, whose {@code observedAt} says when the snapshot was taken
     * @throws IllegalArgumentException when {@code maxAge} is under one millisecond
     */
    public QueueDiagnostics diagnostics(Duration maxAge) {
        return bus.engineOf(name).diagnostics(SERIALIZER_IDENTITY, Durations.requirePositiveMillis(maxAge, "maxAge"));
    }

    /**
     * Tells whether this process consumes the subscription right now; other processes may consume it too.
     *
     * @return true while its consumer runs here
     */
    public boolean consuming() {
        return consumer() != null;
    }

    /**
     * Pauses the subscription for every process on the file or schema, as {@link io.localqueue.SimpleQueue#pause()}
     * pauses a queue: within a second no consumer anywhere claims its deliveries, events keep arriving, and the pause
     * outlasts restarts until {@link #resume()}. {@link #pauseHere()} stops this process's consumer alone.
     *
     * @return true when the subscription was running and is paused now; false when it was paused already
     * @since 0.1.0
     */
    public boolean pause() {
        return bus.engineOf(name).pause();
    }

    /**
     * Lets every process claim the subscription's deliveries again.
     *
     * @return true when the subscription was paused for every process; false when it was running
     * @since 0.1.0
     */
    public boolean resume() {
        return bus.engineOf(name).resume();
    }

    /**
     * Tells whether the subscription is paused for every process, reading the file or schema.
     *
     * @return true between {@link #pause()} and {@link #resume()}, whichever process called them
     * @since 0.1.0
     */
    public boolean isPaused() {
        return bus.engineOf(name).pauseState() != null;
    }

    /**
     * Stops this process's consumer of the subscription from claiming until {@link #resumeHere()}, without waiting:
     * running handlers finish and settle as usual, and deliveries claimed but not started go back without being
     * counted. Other processes consume on (to drain one instance); the pause holds across a stop and start of the bus
     * and applies to a consumer not started yet.
     *
     * @since 0.1.0
     */
    public synchronized void pauseHere() {
        paused = true;
        if (consumer != null) {
            consumer.pause();
        }
    }

    /**
     * Lets this process's consumer of the subscription claim again; does nothing when it is not paused here.
     *
     * @since 0.1.0
     */
    public synchronized void resumeHere() {
        paused = false;
        if (consumer != null) {
            consumer.resume();
        }
    }

    /**
     * Tells whether this process's consumer of the subscription is paused; a subscription paused here still consumes
     * in other processes.
     *
     * @return true between {@link #pauseHere()} and {@link #resumeHere()}
     * @since 0.1.0
     */
    public synchronized boolean isPausedHere() {
        return paused;
    }

    /**
     * Counts the deliveries this process's handlers of the subscription hold right now.
     *
     * @return zero when it does not consume here
     */
    public int activeDeliveries() {
        SubscriptionConsumer current = consumer();
        return current == null ? 0 : current.activeDeliveries();
    }

    /**
     * Lists the subscription's dead letters, oldest first, reading each with the bus's event types.
     *
     * @return up to 100 dead letters
     */
    public List<FailedDelivery> listFailed() {
        return listFailed(100, 0);
    }

    /**
     * Lists a page of the subscription's dead letters, oldest first; an envelope that cannot be read gives an
     * {@code inspectionError}, never an exception.
     *
     * @param limit at most this many, 1 to 1000
     * @param offset skipped first, zero or more
     * @return the page
     * @throws IllegalArgumentException when a bound is out of range
     */
    public List<FailedDelivery> listFailed(int limit, int offset) {
        if (limit < 1 || limit > 1_000) {
            throw new InvalidArgumentException("limit", "limit must be between 1 and 1000, got " + limit);
        }
        if (offset < 0) {
            throw new InvalidArgumentException("offset", "offset must not be negative, got " + offset);
        }
        List<FailedDelivery> failed = new ArrayList<>();
        for (FailedRow row : bus.engineOf(name).listFailed(limit, offset)) {
            EventCodec.Decoded decoded = bus.codec().decode(row.payload());
            failed.add(new FailedDelivery(row.id(), name, decoded.event(), decoded.typeName(), decoded.metadata(),
                    row.payload(), row.attempts(), FailureReason.fromStored(row.failureReason()), row.lastError(),
                    row.failureCategory(),
                    Instant.ofEpochMilli(row.createdAt()), Instant.ofEpochMilli(row.updatedAt()), decoded.error()));
        }
        return List.copyOf(failed);
    }

    /**
     * Makes one of this subscription's dead letters ready again with a fresh budget; an event-bus execution that
     * delivered it is no longer complete.
     *
     * @param id the dead letter's id
     * @throws JobNotFoundException when it is not a dead letter of this subscription
     */
    public void retryFailed(long id) {
        try {
            bus.engineOf(name).retryFailed(id);
        } catch (JobNotFoundException missing) {
            throw new JobNotFoundException("delivery " + id + " is not a dead letter of subscription '" + name
                    + "' of bus '" + bus.name() + "'");
        }
    }

    /**
     * Deletes the subscription's acknowledged deliveries, and its dead letters too when {@code includeFailed}, last
     * changed more than {@code olderThan} ago, across every process on the file; the deliveries of an execution are
     * kept until the execution is deleted ({@link EventBus#deleteExecution}). The file keeps its size until
     * {@link io.localqueue.LocalQueueDatabase#vacuum()}.
     *
     * @param olderThan the minimum age, zero or more
     * @param includeFailed whether dead letters are deleted as well
     * @return how many deliveries were deleted
     * @throws IllegalArgumentException when {@code olderThan} is null or negative
     * @since 0.1.0
     */
    public int purge(Duration olderThan, boolean includeFailed) {
        return bus.engineOf(name).purge(Durations.requireNonNegativeMillis(olderThan, "olderThan"), includeFailed);
    }

    @Override
    public String toString() {
        return "Subscription[" + bus.name() + ":" + name + "]";
    }

    /** Adds a handler; the bus has validated the routes. */
    SubscriptionHandlers handlers() {
        return handlers;
    }

    /** Returns this process's consumer, or null when the subscription does not consume here. */
    synchronized @Nullable SubscriptionConsumer consumer() {
        return consumer;
    }

    /** Starts consuming on a consumer, paused when the subscription was paused before. */
    synchronized void consumeWith(SubscriptionConsumer started) {
        this.consumer = started;
        started.start(paused);
    }

    /** Forgets the consumer of a stop, and returns it; null when none consumed. */
    synchronized @Nullable SubscriptionConsumer detach() {
        SubscriptionConsumer stopped = consumer;
        consumer = null;
        return stopped;
    }
}
