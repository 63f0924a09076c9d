/**
 * Not API: the one consumer runtime under a {@code Worker} and an event-bus subscription's consumer. {@link
 * io.localqueue.internal.consumer.ConsumerRuntime} owns a consumer's threads, its claims (a {@link
 * io.localqueue.internal.consumer.ClaimSource}, usually the batched {@link io.localqueue.internal.consumer.ClaimFeed}),
 * the back-off of failing claims, lease heartbeats, the lane its reports run on, and pause, stop, drain and abandon;
 * {@link io.localqueue.internal.consumer.FailurePolicy} is the one rule that turns a handler's exception into a
 * settlement.
 */
@NullMarked
package io.localqueue.internal.consumer;

import org.jspecify.annotations.NullMarked;
