/**
 * The event bus: events fanned out atomically to durable subscriptions of one queue file, each a consumer group
 * whose deliveries are fenced, retried and dead-lettered like jobs, and stored in the envelope the Python library's
 * bus reads and writes.
 *
 * @since 0.1.0
 */
@NullMarked
package io.localqueue.bus;

import org.jspecify.annotations.NullMarked;
