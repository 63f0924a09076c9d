package io.localqueue.spring.actuate;

import io.localqueue.FailureReason;
import io.localqueue.JobOutcome;
import io.localqueue.bus.DeliveryObserver;
import io.localqueue.bus.EventBus;
import io.localqueue.bus.Subscription;
import io.localqueue.spring.ObservedQueues;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Micrometer meters of the event bus, tagged {@code bus} and {@code subscription}: gauges
 * {@code localqueue.bus.deliveries} (tag {@code state}) and {@code localqueue.bus.deliveries.oldest.age} (the
 * subscription's lag) from each subscription's last snapshot; counter {@code localqueue.bus.deliveries.processed} and
 * timer {@code localqueue.bus.handler.duration} (tags {@code event}, the stored event type or {@value #UNKNOWN_EVENT}
 * for an envelope that could not be read, and {@code outcome}) of the deliveries this application's handlers
 * finished; counter {@code localqueue.bus.leases.expired} (tag {@code result}: {@code ready} or
 * {@code dead_lettered}); and, with the listeners' dead letters, counter {@code localqueue.dead-letters} (tags
 * {@code queue}, the queue holding the subscription's deliveries, and {@code reason}). A subscription that gains its first handler after the meters were bound gets its gauges
 * with its first finished delivery.
 *
 * @since 0.1.0
 */
public class LocalQueueBusMetrics implements MeterBinder, DeliveryObserver {

    /** The {@code event} tag of a delivery whose envelope could not be read. */
    public static final String UNKNOWN_EVENT = "unknown";

    private static final Logger log = LoggerFactory.getLogger(LocalQueueBusMetrics.class);

    private final ObservedQueues observed;
    private final Supplier<EventBus> bus;
    private final Map<Outcome, OutcomeMeters> outcomeMeters = new ConcurrentHashMap<>();
    private final Set<String> gauged = ConcurrentHashMap.newKeySet();
    private volatile @Nullable MeterRegistry registry;

    /**
     * Creates the meters' source.
     *
     * @param observed how old reported figures may be
     * @param bus the event bus, looked up when the meters are bound (the bus is told of this observer when it is
     *            built, so it cannot be given here)
     */
    public LocalQueueBusMetrics(ObservedQueues observed, Supplier<EventBus> bus) {
        this.observed = observed;
        this.bus = bus;
    }

    @Override
    public void bindTo(MeterRegistry meterRegistry) {
        this.registry = meterRegistry;
        outcomeMeters.clear();
        gauged.clear();
        bus.get().topology().subscriptionNames().forEach(this::registerGauges);
    }

    @Override
    public void deliveryFinished(String subscription, @Nullable String eventType, JobOutcome outcome,
                                 Duration handlerTime, @Nullable Throwable error) {
        MeterRegistry meters = registry;
        if (meters == null) {
            return;
        }
        OutcomeMeters recorded = outcomeMeters.computeIfAbsent(new Outcome(subscription,
                eventType == null ? UNKNOWN_EVENT : eventType, outcome), key -> register(meters, key));
        recorded.processed.increment();
        recorded.duration.record(handlerTime);
    }

    @Override
    public void leaseExpired(String subscription, long deliveryId, int attempts, boolean deadLettered) {
        MeterRegistry meters = registry;
        if (meters == null) {
            return;
        }
        Counter.builder("localqueue.bus.leases.expired")
                .description("Deliveries whose lease ran out before they were settled, by what became of them")
                .tags(tags(subscription)).tag("result", deadLettered ? "dead_lettered" : "ready")
                .register(meters).increment();
    }

    @Override
    public void deliveryDeadLettered(String subscription, long deliveryId, FailureReason reason,
                                     @Nullable String lastError, int attempts) {
        MeterRegistry meters = registry;
        if (meters != null) {
            DeadLetterMeter.count(meters, bus.get().subscription(subscription).queueName(), reason);
        }
    }

    /** Builds the meters of one subscription, event type and outcome, once; the subscription's gauges come too. */
    private OutcomeMeters register(MeterRegistry meters, Outcome key) {
        registerGauges(key.subscription);
        Tags tags = tags(key.subscription).and("event", key.eventType).and("outcome", key.outcome.tag());
        return new OutcomeMeters(
                Counter.builder("localqueue.bus.deliveries.processed")
                        .description("Deliveries whose handler finished, by outcome").tags(tags).register(meters),
                Timer.builder("localqueue.bus.handler.duration")
                        .description("Time spent in event handlers").tags(tags).register(meters));
    }

    private void registerGauges(String subscription) {
        MeterRegistry meters = registry;
        if (meters == null || !gauged.add(subscription)) {
            return;
        }
        Subscription observedSubscription = bus.get().subscription(subscription);
        CountGauges.register(meters, "localqueue.bus.deliveries", "deliveries", tags(subscription),
                () -> observed.stats(observedSubscription), () -> observed.diagnostics(observedSubscription), log);
    }

    private Tags tags(String subscription) {
        return Tags.of("bus", bus.get().name(), "subscription", subscription);
    }

    private record Outcome(String subscription, String eventType, JobOutcome outcome) {
    }

    private record OutcomeMeters(Counter processed, Timer duration) {
    }
}
