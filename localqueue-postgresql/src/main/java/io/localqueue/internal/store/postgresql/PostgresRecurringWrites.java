package io.localqueue.internal.store.postgresql;

import io.localqueue.internal.store.FiredTick;
import io.localqueue.internal.store.RecurringDefinition;
import io.localqueue.internal.store.RecurringFire;
import io.localqueue.internal.store.RecurringRow;
import io.localqueue.internal.store.RecurringWrites;
import io.localqueue.internal.store.TickFire;

/** The recurring jobs' transitions on the transaction of a {@link PostgresWrites}. */
final class PostgresRecurringWrites implements RecurringWrites {

    private final PostgresWrites writes;

    PostgresRecurringWrites(PostgresWrites writes) {
        this.writes = writes;
    }

    @Override
    public RecurringRow save(RecurringDefinition definition, long now) {
        return writes.run(connection -> RecurringStatements.save(connection, writes.schema(), definition, now));
    }

    @Override
    public boolean setEnabled(String id, boolean enabled, long now) {
        return writes.run(connection -> RecurringStatements.setEnabled(connection, writes.schema(), id, enabled, now));
    }

    @Override
    public boolean delete(String id) {
        return writes.run(connection -> RecurringStatements.delete(connection, writes.schema(), id));
    }

    @Override
    public FiredTick fire(TickFire tick) {
        return writes.run(connection -> RecurringFire.fire(new RecurringStatements.Steps(connection, writes.schema()),
                tick));
    }
}
