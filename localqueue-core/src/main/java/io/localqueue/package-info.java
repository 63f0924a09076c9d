/**
 * The public API of localqueue: durable, fenced, multi-process-safe job queues on one SQLite file.
 */
@NullMarked
package io.localqueue;

import org.jspecify.annotations.NullMarked;
