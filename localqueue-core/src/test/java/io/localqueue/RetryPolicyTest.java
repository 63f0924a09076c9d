package io.localqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {

    @Test
    void fixedWaitsTheSameAfterEveryDelivery() {
        RetryPolicy policy = RetryPolicy.fixed(4, Duration.ofSeconds(3));

        assertThat(policy.maxAttempts()).isEqualTo(4);
        assertThat(policy.delayAfter(1)).isEqualTo(Duration.ofSeconds(3));
        assertThat(policy.delayAfter(1_000)).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void exponentialGrowsByItsMultiplierUpToItsCap() {
        RetryPolicy policy = RetryPolicy.exponential(10, Duration.ofMillis(100), 3.0, Duration.ofSeconds(2), false);

        assertThat(policy.delayAfter(1)).isEqualTo(Duration.ofMillis(100));
        assertThat(policy.delayAfter(2)).isEqualTo(Duration.ofMillis(300));
        assertThat(policy.delayAfter(3)).isEqualTo(Duration.ofMillis(900));
        assertThat(policy.delayAfter(4)).isEqualTo(Duration.ofSeconds(2));
        assertThat(policy.delayAfter(Integer.MAX_VALUE)).as("saturates, never overflows")
                .isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void fullJitterDrawsBetweenZeroAndTheExponentialWait() {
        RetryPolicy policy = RetryPolicy.exponential(5);

        assertThat(policy.delayAfter(3, () -> 0.0)).isZero();
        assertThat(policy.delayAfter(3, () -> 0.5)).isEqualTo(Duration.ofMillis(1_000));
        assertThat(policy.delayAfter(3, () -> 0.999_999)).isEqualTo(Duration.ofMillis(1_999));
        for (int i = 0; i < 1_000; i++) {
            assertThat(policy.delayAfter(20)).isBetween(Duration.ZERO, Duration.ofSeconds(60));
        }
    }

    @Test
    void aZeroInitialDelayWaitsNothing() {
        assertThat(RetryPolicy.exponential(3, Duration.ZERO, 2.0, Duration.ofSeconds(1), false).delayAfter(3))
                .isZero();
    }

    @Test
    void badSettingsAreRefusedByName() {
        assertThatThrownBy(() -> RetryPolicy.fixed(0, Duration.ZERO)).hasMessageContaining("maxAttempts");
        assertThatThrownBy(() -> RetryPolicy.fixed(2, Duration.ofSeconds(-1))).hasMessageContaining("delay");
        assertThatThrownBy(() -> RetryPolicy.fixed(2, null)).hasMessageContaining("delay");
        assertThatThrownBy(() -> RetryPolicy.exponential(2, Duration.ofSeconds(1), 1.0, Duration.ofSeconds(2), true))
                .hasMessageContaining("multiplier");
        assertThatThrownBy(() -> RetryPolicy.exponential(2, Duration.ofSeconds(1), Double.NaN, Duration.ofSeconds(2),
                true)).hasMessageContaining("multiplier");
        assertThatThrownBy(() -> RetryPolicy.exponential(2, Duration.ofSeconds(3), 2.0, Duration.ofSeconds(2), true))
                .hasMessageContaining("maxDelay");
        assertThatThrownBy(() -> RetryPolicy.fixed(2, Duration.ZERO).delayAfter(0)).hasMessageContaining("attempt");
        assertThatThrownBy(() -> new RetryLaterException(Duration.ofSeconds(-1))).hasMessageContaining("delay");
    }

    @Test
    void equalSettingsAreEqualPolicies() {
        assertThat(RetryPolicy.exponential(5)).isEqualTo(
                RetryPolicy.exponential(5, Duration.ofMillis(500), 2.0, Duration.ofSeconds(60), true))
                .hasSameHashCodeAs(RetryPolicy.exponential(5));
        assertThat(RetryPolicy.fixed(3, Duration.ofSeconds(1))).isNotEqualTo(RetryPolicy.fixed(3,
                Duration.ofSeconds(2)));
        assertThat(RetryPolicy.fixed(3, Duration.ofSeconds(1)).toString()).contains("fixed", "PT1S");
    }
}
