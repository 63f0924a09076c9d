package io.localqueue.spring.bus;

import io.localqueue.FailureReason;
import io.localqueue.JobOutcome;
import io.localqueue.bus.DeliveryObserver;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Tells several observers, in order, of everything the event bus's consumers report; the application's
 * {@link DeliveryObserver} beans are combined this way for the auto-configured bus.
 *
 * @since 0.1.0
 */
public final class CompositeDeliveryObserver implements DeliveryObserver {

    private final List<DeliveryObserver> observers;

    private CompositeDeliveryObserver(List<DeliveryObserver> observers) {
        this.observers = List.copyOf(observers);
    }

    /**
     * Combines observers: none gives {@link DeliveryObserver#NONE}, one gives that one.
     *
     * @param observers the observers, in the order they are told
     * @return an observer telling them all
     */
    public static DeliveryObserver of(List<DeliveryObserver> observers) {
        if (observers.isEmpty()) {
            return DeliveryObserver.NONE;
        }
        return observers.size() == 1 ? observers.get(0) : new CompositeDeliveryObserver(observers);
    }

    @Override
    public void deliveryFinished(String subscription, @Nullable String eventType, JobOutcome outcome,
                                 Duration handlerTime, @Nullable Throwable error) {
        observers.forEach(observer -> observer.deliveryFinished(subscription, eventType, outcome, handlerTime, error));
    }

    @Override
    public void leaseExpired(String subscription, long deliveryId, int attempts, boolean deadLettered) {
        observers.forEach(observer -> observer.leaseExpired(subscription, deliveryId, attempts, deadLettered));
    }

    @Override
    public void deliveryDeadLettered(String subscription, long deliveryId, FailureReason reason,
                                     @Nullable String lastError, int attempts) {
        observers.forEach(observer -> observer.deliveryDeadLettered(subscription, deliveryId, reason, lastError,
                attempts));
    }

    /** Names the observers, for the log line of a slow report. */
    @Override
    public String toString() {
        return observers.toString();
    }
}
