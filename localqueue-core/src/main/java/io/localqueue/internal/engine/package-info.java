/**
 * Not API: the engine. {@link io.localqueue.internal.engine.QueueEngine} is one queue in bytes: claims that wait,
 * enqueues that wait for room, fenced settlements, lease reclaim and maintenance, each a transition of the
 * {@link io.localqueue.internal.store.QueueStore store}. {@link io.localqueue.internal.engine.Database} shares one
 * store per database in this JVM; {@link io.localqueue.internal.engine.GroupCommit} folds the settlements that
 * threads submit at the same moment into one transaction; {@link io.localqueue.internal.engine.SnapshotCache} keeps each
 * queue's last snapshot for readers that accept figures of a bounded age.
 */
@NullMarked
package io.localqueue.internal.engine;

import org.jspecify.annotations.NullMarked;
