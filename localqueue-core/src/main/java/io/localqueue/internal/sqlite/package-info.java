/**
 * Not API: how this library talks to a SQLite file. {@link io.localqueue.internal.sqlite.Session} is one connection
 * with the statements prepared on it; {@link io.localqueue.internal.sqlite.Writer} runs write transactions on the one
 * writer connection ({@code BEGIN IMMEDIATE}, the writers' line in front of SQLite's lock, retries on contention);
 * {@link io.localqueue.internal.sqlite.ReaderPool} lends the few read connections. No SQL of the queue lives here.
 */
@NullMarked
package io.localqueue.internal.sqlite;

import org.jspecify.annotations.NullMarked;
