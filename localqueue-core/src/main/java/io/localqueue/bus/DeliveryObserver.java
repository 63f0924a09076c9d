package io.localqueue.bus;

import io.localqueue.FailureReason;
import io.localqueue.JobOutcome;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * Receives what a bus's consumers do with the deliveries of this process, for metrics, logs and alerts. Called on
 * each subscription's report thread, {@code localqueue-report-bus-<bus>-<subscription>}, one call at a time in the
 * order of the outcomes, never on the thread that records settlements: a slow observer delays only that
 * subscription's later reports, and the first call slower than a second is logged once. What it throws is logged and
 * ignored.
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
     * Called when a delivery of this process became a dead letter, after {@link #deliveryFinished} (or
     * {@link #leaseExpired}) told of it: its handler rejected it, failed permanently or on its last delivery, its
     * envelope could not be read, no handler of this process takes its type, or its last lease expired.
     *
     * @param subscription the subscription
     * @param deliveryId the delivery, which the subscription's {@code listFailed} lists and {@code retryFailed}
     *                   replays
     * @param reason why it failed
     * @param lastError the error recorded with it, or null
     * @param attempts its deliveries, the last included
     * @since 0.1.0
     */
    default void deliveryDeadLettered(String subscription, long deliveryId, FailureReason reason,
                                      @Nullable String lastError, int attempts) {
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
