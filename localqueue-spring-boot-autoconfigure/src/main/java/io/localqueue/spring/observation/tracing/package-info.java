/**
 * What Micrometer Tracing adds to the observation of listeners and event handlers: the span of a redelivery, which
 * starts a trace of its own, links to the span that put the job or dispatched the event. Used only when Micrometer
 * Tracing is on the class path.
 */
@NullMarked
package io.localqueue.spring.observation.tracing;

import org.jspecify.annotations.NullMarked;
