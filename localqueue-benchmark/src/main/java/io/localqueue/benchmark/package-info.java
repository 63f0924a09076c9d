/**
 * The localqueue benchmark: scenarios measured through the engine's public API ({@code SimpleQueue},
 * {@code Worker}, {@code LocalQueueTemplate} and {@code @QueueListener}), a raw JDBC baseline of the same work on the
 * same schema, child JVMs for the cross-process scenarios, and the JSON and Markdown reports. Run
 * {@link io.localqueue.benchmark.BenchmarkMain}.
 */
@NullMarked
package io.localqueue.benchmark;

import org.jspecify.annotations.NullMarked;
