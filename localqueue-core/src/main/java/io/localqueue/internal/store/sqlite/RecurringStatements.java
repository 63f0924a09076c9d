package io.localqueue.internal.store.sqlite;

import io.localqueue.internal.store.Columns;
import io.localqueue.internal.store.FiredTick;
import io.localqueue.internal.store.NewJob;
import io.localqueue.internal.store.RecurringDefinition;
import io.localqueue.internal.store.RecurringFire;
import io.localqueue.internal.store.RecurringRow;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Recurring jobs on the file: their definitions in {@code recurring_jobs}, and the steps of a tick
 * ({@link RecurringFire}) on {@code recurring_ticks}, whose primary key makes a tick fire once whichever process
 * fires it. The single writer runs every tick's transaction alone, so reading the row needs no lock.
 */
final class RecurringStatements {

    /**
     * Stores a definition: a new one enabled and anchored at {@code ?9}; a changed one gets a new version, and a new
     * anchor when its cron or zone changed; an unchanged one is left as it is.
     */
    private static final String SAVE = """
            INSERT INTO recurring_jobs (id, queue, cron, zone, payload, max_attempts, skip_missed, allow_overlap,
                                        enabled, anchor, version, created_at, updated_at)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 1, ?9, 1, ?9, ?9)
            ON CONFLICT (id) DO UPDATE SET
                queue = excluded.queue, cron = excluded.cron, zone = excluded.zone, payload = excluded.payload,
                max_attempts = excluded.max_attempts, skip_missed = excluded.skip_missed,
                allow_overlap = excluded.allow_overlap,
                anchor = CASE WHEN cron <> excluded.cron OR zone <> excluded.zone THEN excluded.anchor ELSE anchor END,
                version = version + 1, updated_at = excluded.updated_at
              WHERE queue <> excluded.queue OR cron <> excluded.cron OR zone <> excluded.zone
                 OR payload <> excluded.payload OR max_attempts <> excluded.max_attempts
                 OR skip_missed <> excluded.skip_missed OR allow_overlap <> excluded.allow_overlap""";

    /** Each recurring job with the status of the job its last tick enqueued (a rowid probe). */
    private static final String ROWS = """
            SELECT id, queue, cron, zone, payload, max_attempts, skip_missed, allow_overlap, enabled, anchor,
                   last_tick, last_fired_at, last_job, (SELECT status FROM messages WHERE id = last_job), version
              FROM recurring_jobs""";

    private static final String ROW = ROWS + " WHERE id = ?";

    private static final String ALL_ROWS = ROWS + " ORDER BY id";

    /** Enables or disables; an enable starts the schedule at {@code ?3}. */
    private static final String SET_ENABLED = """
            UPDATE recurring_jobs SET enabled = ?2, anchor = CASE WHEN ?2 = 1 THEN ?3 ELSE anchor END,
                                      version = version + 1, updated_at = ?3
             WHERE id = ?1 AND enabled <> ?2""";

    private static final String DELETE = "DELETE FROM recurring_jobs WHERE id = ?";

    private static final String DELETE_TICKS = "DELETE FROM recurring_ticks WHERE recurring_id = ?";

    private static final String RECORD_TICK = """
            INSERT INTO recurring_ticks (recurring_id, tick_at, manual, fired_at, outcome) VALUES (?1, ?2, ?3, ?4, ?5)
            ON CONFLICT DO NOTHING""";

    private static final String TICK_JOB =
            "UPDATE recurring_ticks SET message_id = ?4 WHERE recurring_id = ?1 AND tick_at = ?2 AND manual = ?3";

    /** Moves the position to {@code ?2} when given, and the last job to {@code ?3}, fired at {@code ?4}, when given. */
    private static final String MOVED = """
            UPDATE recurring_jobs SET last_tick = COALESCE(?2, last_tick), last_job = COALESCE(?3, last_job),
                                      last_fired_at = CASE WHEN ?3 IS NULL THEN last_fired_at ELSE ?4 END
             WHERE id = ?1""";

    /** Deletes the job's tick rows before the last {@link RecurringFire#TICKS_KEPT}, found by one seek. */
    private static final String PRUNE = """
            DELETE FROM recurring_ticks
             WHERE recurring_id = ?1 AND tick_at < (SELECT tick_at FROM recurring_ticks WHERE recurring_id = ?1
                                                     ORDER BY tick_at DESC LIMIT 1 OFFSET %d)"""
            .formatted(RecurringFire.TICKS_KEPT - 1);

    private RecurringStatements() {
    }

    static RecurringRow save(Session session, RecurringDefinition definition, long now) throws SQLException {
        session.update(SAVE, statement -> {
            statement.setString(1, definition.id());
            statement.setString(2, definition.queue());
            statement.setString(3, definition.cron());
            statement.setString(4, definition.zone());
            statement.setBytes(5, definition.payload());
            statement.setInt(6, definition.maxAttempts());
            statement.setBoolean(7, definition.skipMissed());
            statement.setBoolean(8, definition.allowOverlap());
            statement.setLong(9, now);
        });
        RecurringRow row = row(session, definition.id());
        if (row == null) {
            throw new IllegalStateException("recurring job " + definition.id() + " not found after its save");
        }
        return row;
    }

    static @Nullable RecurringRow row(Session session, String id) throws SQLException {
        return session.query(ROW, statement -> statement.setString(1, id),
                rows -> rows.next() ? read(rows) : null);
    }

    static List<RecurringRow> rows(Session session) throws SQLException {
        return session.query(ALL_ROWS, statement -> { }, rows -> {
            List<RecurringRow> all = new ArrayList<>();
            while (rows.next()) {
                all.add(read(rows));
            }
            return all;
        });
    }

    static boolean setEnabled(Session session, String id, boolean enabled, long now) throws SQLException {
        return session.update(SET_ENABLED, statement -> {
            statement.setString(1, id);
            statement.setBoolean(2, enabled);
            statement.setLong(3, now);
        }) == 1;
    }

    static boolean delete(Session session, String id) throws SQLException {
        session.update(DELETE_TICKS, statement -> statement.setString(1, id));
        return session.update(DELETE, statement -> statement.setString(1, id)) == 1;
    }

    private static RecurringRow read(ResultSet rows) throws SQLException {
        RecurringDefinition definition = new RecurringDefinition(rows.getString(1), rows.getString(2),
                rows.getString(3), rows.getString(4), rows.getBytes(5), rows.getInt(6), rows.getBoolean(7),
                rows.getBoolean(8));
        return new RecurringRow(definition, rows.getBoolean(9), rows.getLong(10), Columns.nullableLong(rows, 11),
                Columns.nullableLong(rows, 12), Columns.nullableLong(rows, 13), Columns.nullableInt(rows, 14), rows.getLong(15));
    }

    /** A tick's steps, in its transaction on the writer's session. */
    static final class Steps implements RecurringFire.Steps {

        private final Session session;

        Steps(Session session) {
            this.session = session;
        }

        @Override
        public @Nullable RecurringRow row(String id) throws SQLException {
            return RecurringStatements.row(session, id);
        }

        @Override
        public boolean recordTick(String id, long tickAt, boolean manual, FiredTick.Outcome outcome, long now)
                throws SQLException {
            return session.update(RECORD_TICK, statement -> {
                statement.setString(1, id);
                statement.setLong(2, tickAt);
                statement.setBoolean(3, manual);
                statement.setLong(4, now);
                statement.setString(5, outcome.name().toLowerCase(java.util.Locale.ROOT));
            }) == 1;
        }

        @Override
        public long enqueue(String id, long tickAt, boolean manual, String queue, NewJob job, int maxAttempts,
                            long now) throws SQLException {
            List<Long> ids = EnqueueStatements.insert(session, queue, List.of(job), maxAttempts, now, 0).ids();
            long jobId = ids == null ? -1 : ids.get(0);
            session.update(TICK_JOB, statement -> {
                statement.setString(1, id);
                statement.setLong(2, tickAt);
                statement.setBoolean(3, manual);
                statement.setLong(4, jobId);
            });
            return jobId;
        }

        @Override
        public void moved(String id, @Nullable Long tickAt, @Nullable Long jobId, long now) throws SQLException {
            session.update(MOVED, statement -> {
                statement.setString(1, id);
                statement.setObject(2, tickAt);
                statement.setObject(3, jobId);
                statement.setLong(4, now);
            });
        }

        @Override
        public void prune(String id) throws SQLException {
            session.update(PRUNE, statement -> statement.setString(1, id));
        }
    }
}
