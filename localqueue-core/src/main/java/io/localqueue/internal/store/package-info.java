/**
 * Not API: the seam between the engine and a SQL database. {@link io.localqueue.internal.store.QueueStore} is what
 * the engine asks of a database, in transitions ({@link io.localqueue.internal.store.QueueWrites}) and reads; a
 * store implements it in its own dialect, with its own connections and wake-ups. The values here are the words both
 * sides speak.
 */
@NullMarked
package io.localqueue.internal.store;

import org.jspecify.annotations.NullMarked;
