package io.localqueue.bus;

import io.localqueue.JobOutcome;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * Receives what a bus's consumers do with the deliveries of this process, for metrics and logs; called on the
 * consumers' threads, so it must be quick, and what it throws is logged and ignored.
 *
 * @since 0.1.0
 */
public interface DeliveryObserver {

    /** An observer that ignores everything. */
    DeliveryObserver NONE = new DeliveryObserver() {
    };

    /**
     * Called once per delivery after its outcome is settled: {@link JobOutcome#ACKED} also when its handler's events
     * were stored with the acknowledgement, {@link JobOutcome#DISCARDED} when its lease was gone first, and
     * {@link JobOutcome#RELEASED} when stopping the bus interrupted its handler.
     *
     * @param subscription the subscription
     * @param eventType the stored event type, or null when the envelope could not be read (no handler ran)
     * @param outcome what happened to the delivery
     * @param handlerTime how long its handler ran; zero when none ran
     * @param error what the handler threw, or null
     */
    default void deliveryFinished(String subscription, @Nullable String eventType, JobOutcome outcome,
                                  Duration handlerTime, @Nullable Throwable error) {
    }

    /**
     * Called when this process's claims on a subscription took back a delivery whose lease had run out (a handler
     * that outlived its lease, or a process that died holding it).
     *
     * @param subscription the subscription
     * @param deliveryId the delivery
     * @param attempts its deliveries so far, the expired one included
     * @param deadLettered true when that was its last delivery and it is now a dead letter
     */
    default void leaseExpired(String subscription, long deliveryId, int attempts, boolean deadLettered) {
    }
}
