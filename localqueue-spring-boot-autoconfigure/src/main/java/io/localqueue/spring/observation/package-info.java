/**
 * Micrometer Observation of localqueue: an observation around each write of the {@code LocalQueueTemplate} and each
 * delivery a {@code @QueueListener} handles, with replaceable conventions, and the trace context of a write stored
 * with its jobs so that a tracing bridge continues the trace in the listener. Needs only micrometer-observation; the
 * span links of redeliveries live in {@code io.localqueue.spring.observation.tracing}, used only when Micrometer
 * Tracing is present.
 */
@NullMarked
package io.localqueue.spring.observation;

import org.jspecify.annotations.NullMarked;
