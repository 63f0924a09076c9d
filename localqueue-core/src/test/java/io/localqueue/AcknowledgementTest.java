package io.localqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A handle settles one delivery once, fenced like the queue's own transitions. */
class AcknowledgementTest extends QueueTestBase {

    @Test
    void acknowledgeMakesTheJobDoneAndASecondSettlementIsRefusedByName() {
        SimpleQueue<Object> queue = queue(3);
        queue.put("x");
        Acknowledgement ack = Acknowledgement.of(queue, queue.getNowait());

        ack.acknowledge();

        assertThat(ack.isSettled()).isTrue();
        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 0, 1, 0));
        assertThatThrownBy(() -> ack.release(Duration.ZERO)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("already acknowledged");
        assertThatThrownBy(() -> ack.renew(Duration.ofSeconds(1))).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void releaseHandsTheJobBackAfterItsDelayAndCountsTheDelivery() {
        SimpleQueue<Object> queue = queue(3);
        queue.put("x");
        Acknowledgement ack = Acknowledgement.of(queue, queue.getNowait());
        assertThat(ack.deliveryCount()).isEqualTo(1);

        ack.release(Duration.ofMinutes(1));

        assertThat(queue.stats()).isEqualTo(new QueueStats(1, 0, 0, 0));
        assertThatThrownBy(queue::getNowait).isInstanceOf(QueueEmptyException.class);
        clock.advance(Duration.ofMinutes(1));
        assertThat(Acknowledgement.of(queue, queue.getNowait()).deliveryCount()).isEqualTo(2);
    }

    @Test
    void releaseOnTheLastDeliveryMakesADeadLetter() {
        SimpleQueue<Object> queue = queue(0);
        queue.put("x");

        Acknowledgement.of(queue, queue.getNowait()).release(Duration.ZERO);

        assertThat(queue.listFailed()).singleElement()
                .satisfies(dead -> assertThat(dead.reason()).isEqualTo(FailureReason.RETRIES_EXHAUSTED));
    }

    @Test
    void rejectMakesADeadLetterThatKeepsTheReason() {
        SimpleQueue<Object> queue = queue(3);
        queue.put("x");

        Acknowledgement.of(queue, queue.getNowait()).reject("address unknown");

        assertThat(queue.listFailed()).singleElement().satisfies(dead -> {
            assertThat(dead.reason()).isEqualTo(FailureReason.EXPLICIT_PERMANENT_FAILURE);
            assertThat(dead.lastError()).isEqualTo("address unknown");
        });
    }

    @Test
    void renewExtendsTheLeaseWithoutSettling() {
        SimpleQueue<Object> queue = queue(3);
        queue.put("x");
        Job<Object> job = queue.getNowait();
        Acknowledgement ack = Acknowledgement.of(queue, job);

        clock.advance(Duration.ofSeconds(20));
        ack.renew(Duration.ofSeconds(30));
        clock.advance(Duration.ofSeconds(20));

        assertThat(ack.isSettled()).isFalse();
        ack.acknowledge();
        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 0, 1, 0));
    }

    @Test
    void aStaleHandleIsFencedOutAndStaysUnsettled() {
        SimpleQueue<Object> queue = queue(3);
        queue.put("x");
        Acknowledgement stale = Acknowledgement.of(queue, queue.getNowait());
        clock.advance(Duration.ofSeconds(31));
        Job<Object> again = queue.getNowait();

        assertThatThrownBy(stale::acknowledge).isInstanceOf(LeaseExpiredException.class);

        assertThat(stale.isSettled()).isFalse();
        assertThat(again.attempts()).isEqualTo(1);
        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 1, 0, 0));
    }

    @Test
    void nullsAreRefusedByName() {
        SimpleQueue<Object> queue = queue(3);
        queue.put("x");
        Job<Object> job = queue.getNowait();

        assertThatThrownBy(() -> Acknowledgement.of(null, job)).hasMessageContaining("queue");
        assertThatThrownBy(() -> Acknowledgement.of(queue, null)).hasMessageContaining("job");
        assertThatThrownBy(() -> Acknowledgement.of(queue, job).release(null)).isInstanceOf(
                IllegalArgumentException.class).hasMessageContaining("delay");
    }

    private SimpleQueue<Object> queue(int maxRetries) {
        return open(SimpleQueue.builder(database()).name("acks").delivery(new DeliveryPolicy(Duration.ofSeconds(30),
                maxRetries)).clock(clock));
    }
}
