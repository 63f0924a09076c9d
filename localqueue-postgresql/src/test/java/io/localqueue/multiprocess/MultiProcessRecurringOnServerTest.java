package io.localqueue.multiprocess;

import io.localqueue.internal.store.postgresql.PostgresServer;

/**
 * {@link MultiProcessRecurringTest} on PostgreSQL: the recurring job in a schema of its own on the embedded server,
 * each child JVM opening it through its URL as another host would, so each tick runs once by the lock its transaction
 * takes on the recurring job's row.
 */
class MultiProcessRecurringOnServerTest extends MultiProcessRecurringTest {

    private final String target = PostgresServer.freshTarget();

    @Override
    String target() {
        return target;
    }
}
