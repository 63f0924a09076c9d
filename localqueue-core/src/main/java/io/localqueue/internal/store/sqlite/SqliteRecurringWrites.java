package io.localqueue.internal.store.sqlite;

import io.localqueue.internal.store.FiredTick;
import io.localqueue.internal.store.RecurringDefinition;
import io.localqueue.internal.store.RecurringFire;
import io.localqueue.internal.store.RecurringRow;
import io.localqueue.internal.store.RecurringWrites;
import io.localqueue.internal.store.TickFire;

/** The recurring jobs' transitions on the transaction of a {@link SqliteWrites}, through its statement runner. */
final class SqliteRecurringWrites implements RecurringWrites {

    private final SqliteWrites writes;

    SqliteRecurringWrites(SqliteWrites writes) {
        this.writes = writes;
    }

    @Override
    public RecurringRow save(RecurringDefinition definition, long now) {
        return writes.run(writer -> RecurringStatements.save(writer, definition, now));
    }

    @Override
    public boolean setEnabled(String id, boolean enabled, long now) {
        return writes.run(writer -> RecurringStatements.setEnabled(writer, id, enabled, now));
    }

    @Override
    public boolean delete(String id) {
        return writes.run(writer -> RecurringStatements.delete(writer, id));
    }

    @Override
    public FiredTick fire(TickFire tick) {
        return writes.run(writer -> RecurringFire.fire(new RecurringStatements.Steps(writer), tick));
    }
}
