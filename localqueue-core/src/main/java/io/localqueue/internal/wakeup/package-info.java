/**
 * Not API: wake-ups of threads that wait for work or for room in a queue. {@link
 * io.localqueue.internal.wakeup.Wakeups} signals waiters of this JVM directly after its commits and runs a store's
 * {@link io.localqueue.internal.wakeup.ChangeWatch} for commits of other processes while anyone waits; SQLite's watch
 * reads {@code PRAGMA data_version}, prompted by file-system events.
 */
@NullMarked
package io.localqueue.internal.wakeup;

import org.jspecify.annotations.NullMarked;
