/**
 * Not API: the SQLite store, all of it. {@link io.localqueue.internal.store.sqlite.SqliteQueueStore} is the seam's
 * store on one file and {@link io.localqueue.internal.store.sqlite.SqliteWrites} its transitions, each statement
 * class holding the SQL of its transitions (named as the PostgreSQL store names its own); under them,
 * {@link io.localqueue.internal.store.sqlite.Session} is one connection with the statements prepared on it,
 * {@link io.localqueue.internal.store.sqlite.Writer} runs write transactions on the one writer connection
 * ({@code BEGIN IMMEDIATE}, the writers' line in front of SQLite's lock, retries on contention),
 * {@link io.localqueue.internal.store.sqlite.ReaderPool} lends the few read connections, and
 * {@link io.localqueue.internal.store.sqlite.DataVersionWatch} tells of other processes' commits by
 * {@code PRAGMA data_version}, prompted by file-system events.
 */
@NullMarked
package io.localqueue.internal.store.sqlite;

import org.jspecify.annotations.NullMarked;
