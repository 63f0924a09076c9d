/**
 * Not API: the event bus's own room. Today it holds what the queue's transitions must respect of the bus tables
 * that Python bus processes keep in a shared file; the event bus itself will live here.
 */
@NullMarked
package io.localqueue.internal.bus;

import org.jspecify.annotations.NullMarked;
