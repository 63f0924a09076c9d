package io.localqueue.internal.consumer;

import io.localqueue.FailureReason;
import io.localqueue.RetryLaterException;
import io.localqueue.RetryPolicy;
import io.localqueue.bus.RejectException;
import io.localqueue.bus.RetryException;
import io.localqueue.internal.engine.Errors;
import io.localqueue.internal.store.Settlement;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The one rule that turns what a handler did into a settlement, for a {@code Worker} and a bus subscription alike: a
 * return acknowledges; a {@link RejectException} dead-letters at once as {@link FailureReason#REJECTED} with its
 * category; a {@link RetryException} or a {@link RetryLaterException} retries after the wait it asks for, even when
 * its class is among the permanent errors; one of the consumer's permanent errors dead-letters at once as
 * {@link FailureReason#PERMANENT_HANDLER_ERROR}; a handler timeout or any other exception retries after the retry
 * policy's wait, else none. A retry whose delivery budget is spent becomes a dead letter in the store, with the reason the
 * verdict carries.
 */
public final class FailurePolicy {

    private final List<Class<? extends Throwable>> permanentErrors;
    private final @Nullable RetryPolicy retry;
    private final String permanentPrefix;
    private final FailureReason timeoutReason;

    /**
     * Creates the rule of one consumer.
     *
     * @param permanentErrors exceptions that dead-letter at once
     * @param retry the waits before retries, or null for none
     * @param permanentPrefix what a permanent error's last error starts with ({@code "permanent failure: "} on the bus,
     *                        as Python's bus writes it; nothing for a worker, as Python's worker writes it)
     * @param timeoutReason the reason of a timed-out handler's dead letter once its budget is spent
     */
    public FailurePolicy(List<Class<? extends Throwable>> permanentErrors, @Nullable RetryPolicy retry,
                         String permanentPrefix, FailureReason timeoutReason) {
        this.permanentErrors = List.copyOf(permanentErrors);
        this.retry = retry;
        this.permanentPrefix = permanentPrefix;
        this.timeoutReason = timeoutReason;
    }

    /**
     * Judges one run of a handler.
     *
     * @param error what the handler threw, or null when it returned
     * @param delivery the number of this delivery, 1 for the first
     * @return the settlement to record
     */
    public Verdict judge(@Nullable Throwable error, int delivery) {
        if (error == null) {
            return Verdict.ACK;
        }
        if (error instanceof RejectException rejected) {
            return new Verdict(Settlement.Kind.DEAD_LETTER, String.valueOf(rejected.getMessage()),
                    FailureReason.REJECTED, rejected.category(), 0);
        }
        if (error instanceof RetryException retryLater) {
            Duration after = retryLater.after();
            return retry(String.valueOf(retryLater.getMessage()),
                    after == null ? policyDelay(delivery) : after.toMillis());
        }
        if (error instanceof RetryLaterException later) {
            return retry(Errors.describe(error), later.delay().toMillis());
        }
        if (isPermanent(error)) {
            return new Verdict(Settlement.Kind.DEAD_LETTER, permanentPrefix + Errors.describe(error),
                    FailureReason.PERMANENT_HANDLER_ERROR, null, 0);
        }
        return retry(Errors.describe(error), policyDelay(delivery));
    }

    /**
     * Judges a handler the consumer's timeout interrupted.
     *
     * @param timeout the timeout
     * @param delivery the number of this delivery, 1 for the first
     * @return a retry after the policy's wait
     */
    public Verdict timedOut(Duration timeout, int delivery) {
        return new Verdict(Settlement.Kind.RETRY, "handler timeout after " + timeout.toMillis() / 1000.0 + " seconds",
                retry == null ? timeoutReason : FailureReason.RETRIES_EXHAUSTED, null, policyDelay(delivery));
    }

    /**
     * A retry, after the policy's wait, for a failure that is not the handler's exception.
     *
     * @param lastError what to keep as the last error
     * @param delivery the number of this delivery, 1 for the first
     * @return a retry
     */
    public Verdict retry(String lastError, int delivery) {
        return retry(lastError, policyDelay(delivery));
    }

    private Verdict retry(String lastError, long delayMillis) {
        return new Verdict(Settlement.Kind.RETRY, lastError, FailureReason.RETRIES_EXHAUSTED, null, delayMillis);
    }

    private long policyDelay(int delivery) {
        return retry == null ? 0 : retry.delayAfter(Math.max(1, delivery)).toMillis();
    }

    private boolean isPermanent(Throwable error) {
        for (Class<? extends Throwable> type : permanentErrors) {
            if (type.isInstance(error)) {
                return true;
            }
        }
        return false;
    }

    /**
     * A settlement to record.
     *
     * @param kind acknowledge, retry or dead-letter
     * @param lastError the last error to keep, or null for an acknowledgement
     * @param reason the dead letter's reason, now or once a retry's budget is spent; null for an acknowledgement
     * @param category a rejection's category, or null
     * @param delayMillis a retry's wait
     */
    public record Verdict(Settlement.Kind kind, @Nullable String lastError, @Nullable FailureReason reason,
                          @Nullable String category, long delayMillis) {

        /** The verdict on a handler that returned. */
        public static final Verdict ACK = new Verdict(Settlement.Kind.ACK, null, null, null, 0);

        /**
         * A dead letter at once.
         *
         * @param lastError why
         * @param reason its reason
         * @param category its category, or null
         * @return the verdict
         */
        public static Verdict deadLetter(String lastError, FailureReason reason, @Nullable String category) {
            return new Verdict(Settlement.Kind.DEAD_LETTER, lastError, reason, category, 0);
        }
    }
}
