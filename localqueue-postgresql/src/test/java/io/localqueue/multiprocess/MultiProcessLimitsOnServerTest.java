package io.localqueue.multiprocess;

import io.localqueue.internal.store.postgresql.PostgresServer;

/**
 * {@link MultiProcessLimitsTest} on PostgreSQL: the queue in a schema of its own on the embedded server, each child
 * JVM opening it through its URL as another host would, so every limit holds across hosts by the lock each claim
 * takes on the queue's controls.
 */
class MultiProcessLimitsOnServerTest extends MultiProcessLimitsTest {

    private final String target = PostgresServer.freshTarget();

    @Override
    String target() {
        return target;
    }
}
