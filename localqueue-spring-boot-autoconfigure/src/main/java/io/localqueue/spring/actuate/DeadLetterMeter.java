package io.localqueue.spring.actuate;

import io.localqueue.FailureReason;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The one counter of dead letters, {@code localqueue.dead-letters} (tags {@code queue} and {@code reason}, the stored
 * reason such as {@code retries_exhausted} or {@code invalid_payload}), which listeners and event-bus handlers count
 * alike, so that one alert watches them all.
 */
final class DeadLetterMeter {

    static final String NAME = "localqueue.dead-letters";

    private DeadLetterMeter() {
    }

    /** Counts one dead letter; rare enough that the registry's own lookup of an existing counter is no cost. */
    static void count(MeterRegistry meters, String queue, FailureReason reason) {
        Counter.builder(NAME).description("Jobs and bus deliveries that became dead letters, by reason")
                .tag("queue", queue).tag("reason", reason.value())
                .register(meters).increment();
    }
}
