/**
 * Micrometer Observation of localqueue: an observation around each write of the {@code LocalQueueTemplate}, each
 * delivery a {@code @QueueListener} handles, each dispatch of the event bus and each delivery an
 * {@code @EventHandler} handles, with replaceable conventions, and the trace context of a write or dispatch stored
 * with its jobs or deliveries so that a tracing bridge continues the trace in the listener or handler. Needs only
 * micrometer-observation; the span links of redeliveries live in {@code io.localqueue.spring.observation.tracing},
 * used only when Micrometer Tracing is present.
 */
@NullMarked
package io.localqueue.spring.observation;

import org.jspecify.annotations.NullMarked;
