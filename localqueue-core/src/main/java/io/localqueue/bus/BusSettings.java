package io.localqueue.bus;

import io.localqueue.DeliveryPolicy;
import io.localqueue.DurabilityMode;
import io.localqueue.internal.engine.RetentionPolicy;
import java.time.Clock;
import java.time.Duration;
import tools.jackson.databind.json.JsonMapper;

/**
 * What an {@link EventBus.Builder} settled on, handed to the bus's runtime in one piece; every value is checked by
 * the builder's setter already.
 */
record BusSettings(String name, BusTopology topology, DeliveryPolicy delivery, DurabilityMode durability,
                   boolean requireSubscribers, int concurrency, JsonMapper mapper, Clock clock,
                   Duration executionLease, DeliveryObserver observer, DispatchInterceptor interceptor,
                   RetentionPolicy retention) {
}
