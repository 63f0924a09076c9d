package io.localqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DeliveryPolicyTest {

    @Test
    void defaultsAreSixtySecondLeaseAndThreeRetries() {
        DeliveryPolicy defaults = DeliveryPolicy.defaults();

        assertThat(defaults.lease()).isEqualTo(Duration.ofSeconds(60));
        assertThat(defaults.maxRetries()).isEqualTo(3);
        assertThat(defaults.maxAttempts()).isEqualTo(4);
        assertThat(defaults).isEqualTo(new DeliveryPolicy(DeliveryPolicy.DEFAULT_LEASE,
                DeliveryPolicy.DEFAULT_MAX_RETRIES));
    }

    @Test
    void maxAttemptsIsOneMoreThanMaxRetries() {
        assertThat(new DeliveryPolicy(Duration.ofSeconds(1), 0).maxAttempts()).isEqualTo(1);
        assertThat(new DeliveryPolicy(Duration.ofSeconds(1), 2).maxAttempts()).isEqualTo(3);
    }

    @Test
    void zeroLeaseIsRefusedNamingLease() {
        assertThatThrownBy(() -> new DeliveryPolicy(Duration.ZERO, 3))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lease");
    }

    @Test
    void subMillisecondLeaseIsRefusedAsItsJavadocSays() {
        for (Duration lease : new Duration[] {Duration.ofNanos(1), Duration.ofNanos(999_999)}) {
            assertThatThrownBy(() -> new DeliveryPolicy(lease, 3))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("lease must be at least 1 ms (the stored resolution), got " + lease);
        }
        assertThat(new DeliveryPolicy(Duration.ofMillis(1), 3).lease()).isEqualTo(Duration.ofMillis(1));
    }

    @Test
    void negativeLeaseIsRefusedNamingLease() {
        assertThatThrownBy(() -> new DeliveryPolicy(Duration.ofSeconds(-1), 3))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lease");
    }

    @Test
    void nullLeaseIsRefusedNamingLease() {
        assertThatThrownBy(() -> new DeliveryPolicy(null, 3))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lease");
    }

    @Test
    void overflowingLeaseIsRefusedNamingLease() {
        assertThatThrownBy(() -> new DeliveryPolicy(Duration.ofSeconds(Long.MAX_VALUE), 3))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lease");
    }

    @Test
    void negativeMaxRetriesIsRefusedNamingMaxRetries() {
        assertThatThrownBy(() -> new DeliveryPolicy(Duration.ofSeconds(1), -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxRetries");
    }

    @Test
    void zeroMaxRetriesIsAccepted() {
        assertThat(new DeliveryPolicy(Duration.ofMillis(1), 0).maxRetries()).isZero();
    }

    @Test
    void withersValidateLikeTheConstructor() {
        DeliveryPolicy policy = DeliveryPolicy.defaults().withLease(Duration.ofSeconds(5)).withMaxRetries(1);

        assertThat(policy).isEqualTo(new DeliveryPolicy(Duration.ofSeconds(5), 1));
        assertThatThrownBy(() -> policy.withLease(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> policy.withMaxRetries(-1)).isInstanceOf(IllegalArgumentException.class);
    }
}
