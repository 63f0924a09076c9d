package io.localqueue.internal.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.FailureReason;
import io.localqueue.RetryLaterException;
import io.localqueue.RetryPolicy;
import io.localqueue.bus.RejectException;
import io.localqueue.bus.RetryException;
import io.localqueue.internal.consumer.FailurePolicy.Verdict;
import io.localqueue.internal.store.Settlement;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** One rule for a worker's and a subscription's handlers: each way a handler can end, and the settlement it gets. */
class FailurePolicyTest {

    private final FailurePolicy worker = new FailurePolicy(List.of(IllegalArgumentException.class, RuntimeException.class),
            RetryPolicy.fixed(5, Duration.ofSeconds(3)), "", FailureReason.RETRIES_EXHAUSTED);
    private final FailurePolicy bus = new FailurePolicy(List.of(IllegalArgumentException.class), null,
            "permanent failure: ", FailureReason.HANDLER_TIMEOUT);

    @Test
    void aReturnAcknowledges() {
        assertThat(worker.judge(null, 1)).isEqualTo(Verdict.ACK);
    }

    @Test
    void aPermanentErrorDeadLettersWithTheConsumersWording() {
        assertThat(worker.judge(new IllegalArgumentException("bad address"), 1)).isEqualTo(new Verdict(
                Settlement.Kind.DEAD_LETTER, "java.lang.IllegalArgumentException: bad address",
                FailureReason.PERMANENT_HANDLER_ERROR, null, 0));
        assertThat(bus.judge(new IllegalArgumentException("bad address"), 1).lastError())
                .isEqualTo("permanent failure: java.lang.IllegalArgumentException: bad address");
    }

    @Test
    void aRejectionDeadLettersAtOnceWithItsCategoryEvenUnderARetryPolicy() {
        assertThat(worker.judge(new RejectException("no such user", "unknown_user"), 1)).isEqualTo(new Verdict(
                Settlement.Kind.DEAD_LETTER, "no such user", FailureReason.REJECTED, "unknown_user", 0));
    }

    @Test
    void anAskedForWaitWinsOverThePolicyAndOverABroadPermanentError() {
        assertThat(worker.judge(new RetryLaterException(Duration.ofMinutes(5), "slow down"), 2)).isEqualTo(
                new Verdict(Settlement.Kind.RETRY, "io.localqueue.RetryLaterException: slow down",
                        FailureReason.RETRIES_EXHAUSTED, null, 300_000));
        assertThat(worker.judge(new RetryException("busy", Duration.ofSeconds(7)), 2).delayMillis()).isEqualTo(7_000);
        assertThat(worker.judge(new RetryException("busy"), 2).delayMillis()).as("the policy's wait")
                .isEqualTo(3_000);
        assertThat(bus.judge(new RetryException("busy"), 2).delayMillis()).as("no policy, no wait").isZero();
    }

    @Test
    void anyOtherErrorRetriesAfterThePolicysWaitForThisDelivery() {
        assertThat(bus.judge(new UncheckedIOException("reset", new java.io.IOException("reset")), 3)).isEqualTo(
                new Verdict(Settlement.Kind.RETRY, "java.io.UncheckedIOException: reset",
                        FailureReason.RETRIES_EXHAUSTED, null, 0));
        assertThat(worker.judge(new IllegalStateException("x"), 3).kind()).as("a subclass of a permanent error")
                .isEqualTo(Settlement.Kind.DEAD_LETTER);
    }

    @Test
    void aTimedOutHandlerRetriesAndEndsAsTimedOutWithoutAPolicy() {
        assertThat(bus.timedOut(Duration.ofMillis(1_500), 1)).isEqualTo(new Verdict(Settlement.Kind.RETRY,
                "handler timeout after 1.5 seconds", FailureReason.HANDLER_TIMEOUT, null, 0));
        assertThat(worker.timedOut(Duration.ofSeconds(2), 1).reason()).isEqualTo(FailureReason.RETRIES_EXHAUSTED);
    }
}
