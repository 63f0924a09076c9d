package io.localqueue.internal.store.postgresql;

import io.localqueue.internal.store.Columns;
import io.localqueue.internal.store.FiredTick;
import io.localqueue.internal.store.NewJob;
import io.localqueue.internal.store.RecurringDefinition;
import io.localqueue.internal.store.RecurringFire;
import io.localqueue.internal.store.RecurringRow;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Recurring jobs on the schema: their definitions in {@code recurring_jobs}, and the steps of a tick
 * ({@link RecurringFire}): the tick's transaction locks the job's row ({@code FOR UPDATE}), so hosts firing the same
 * tick take turns and each later one finds the schedule past it; the primary key of {@code recurring_ticks} stands
 * behind that.
 */
final class RecurringStatements {

    private static final String SAVE = """
            INSERT INTO %1$s.recurring_jobs AS r (id, queue, cron, zone, payload, max_attempts, skip_missed,
                                                allow_overlap, enabled, anchor, version, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, true, ?, 1, ?, ?)
            ON CONFLICT (id) DO UPDATE SET
                queue = EXCLUDED.queue, cron = EXCLUDED.cron, zone = EXCLUDED.zone, payload = EXCLUDED.payload,
                max_attempts = EXCLUDED.max_attempts, skip_missed = EXCLUDED.skip_missed,
                allow_overlap = EXCLUDED.allow_overlap,
                anchor = CASE WHEN r.cron <> EXCLUDED.cron OR r.zone <> EXCLUDED.zone THEN EXCLUDED.anchor
                              ELSE r.anchor END,
                version = r.version + 1, updated_at = EXCLUDED.updated_at
              WHERE r.queue <> EXCLUDED.queue OR r.cron <> EXCLUDED.cron OR r.zone <> EXCLUDED.zone
                 OR r.payload <> EXCLUDED.payload OR r.max_attempts <> EXCLUDED.max_attempts
                 OR r.skip_missed <> EXCLUDED.skip_missed OR r.allow_overlap <> EXCLUDED.allow_overlap""";

    private static final String ROWS = """
            SELECT r.id, r.queue, r.cron, r.zone, r.payload, r.max_attempts, r.skip_missed, r.allow_overlap,
                   r.enabled, r.anchor, r.last_tick, r.last_fired_at, r.last_job,
                   (SELECT m.status FROM %1$s.messages m WHERE m.id = r.last_job), r.version
              FROM %1$s.recurring_jobs r""";

    /** The row, locked until the tick's transaction ends. */
    private static final String ROW_LOCKED = ROWS + " WHERE r.id = ? FOR UPDATE OF r";

    private static final String ROW = ROWS + " WHERE r.id = ?";

    private static final String ALL_ROWS = ROWS + " ORDER BY r.id";

    private static final String SET_ENABLED = """
            UPDATE %1$s.recurring_jobs SET enabled = ?, anchor = CASE WHEN ? THEN ? ELSE anchor END,
                                           version = version + 1, updated_at = ?
             WHERE id = ? AND enabled <> ?""";

    private static final String DELETE = "DELETE FROM %1$s.recurring_jobs WHERE id = ?";

    private static final String DELETE_TICKS = "DELETE FROM %1$s.recurring_ticks WHERE recurring_id = ?";

    private static final String RECORD_TICK = """
            INSERT INTO %1$s.recurring_ticks (recurring_id, tick_at, manual, fired_at, outcome) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT DO NOTHING""";

    private static final String TICK_JOB =
            "UPDATE %1$s.recurring_ticks SET message_id = ? WHERE recurring_id = ? AND tick_at = ? AND manual = ?";

    private static final String MOVED = """
            UPDATE %1$s.recurring_jobs SET last_tick = COALESCE(?, last_tick), last_job = COALESCE(?, last_job),
                                           last_fired_at = CASE WHEN ? THEN ? ELSE last_fired_at END
             WHERE id = ?""";

    private static final String PRUNE = """
            DELETE FROM %1$s.recurring_ticks
             WHERE recurring_id = ? AND tick_at < (SELECT tick_at FROM %1$s.recurring_ticks WHERE recurring_id = ?
                                                    ORDER BY tick_at DESC LIMIT 1 OFFSET %2$d)""";

    private RecurringStatements() {
    }

    static RecurringRow save(Connection connection, String schema, RecurringDefinition definition, long now)
            throws SQLException {
        try (PreparedStatement save = connection.prepareStatement(SAVE.formatted(schema))) {
            save.setString(1, definition.id());
            save.setString(2, definition.queue());
            save.setString(3, definition.cron());
            save.setString(4, definition.zone());
            save.setBytes(5, definition.payload());
            save.setInt(6, definition.maxAttempts());
            save.setBoolean(7, definition.skipMissed());
            save.setBoolean(8, definition.allowOverlap());
            save.setLong(9, now);
            save.setLong(10, now);
            save.setLong(11, now);
            save.executeUpdate();
        }
        RecurringRow row = row(connection, schema, definition.id(), ROW);
        if (row == null) {
            throw new IllegalStateException("recurring job " + definition.id() + " not found after its save");
        }
        return row;
    }

    static List<RecurringRow> rows(Connection connection, String schema) throws SQLException {
        try (PreparedStatement read = connection.prepareStatement(ALL_ROWS.formatted(schema));
             ResultSet rows = read.executeQuery()) {
            List<RecurringRow> all = new ArrayList<>();
            while (rows.next()) {
                all.add(read(rows));
            }
            return all;
        }
    }

    static boolean setEnabled(Connection connection, String schema, String id, boolean enabled, long now)
            throws SQLException {
        try (PreparedStatement update = connection.prepareStatement(SET_ENABLED.formatted(schema))) {
            update.setBoolean(1, enabled);
            update.setBoolean(2, enabled);
            update.setLong(3, now);
            update.setLong(4, now);
            update.setString(5, id);
            update.setBoolean(6, enabled);
            return update.executeUpdate() == 1;
        }
    }

    static boolean delete(Connection connection, String schema, String id) throws SQLException {
        try (PreparedStatement ticks = connection.prepareStatement(DELETE_TICKS.formatted(schema));
             PreparedStatement job = connection.prepareStatement(DELETE.formatted(schema))) {
            ticks.setString(1, id);
            ticks.executeUpdate();
            job.setString(1, id);
            return job.executeUpdate() == 1;
        }
    }

    private static @Nullable RecurringRow row(Connection connection, String schema, String id, String sql)
            throws SQLException {
        try (PreparedStatement read = connection.prepareStatement(sql.formatted(schema))) {
            read.setString(1, id);
            try (ResultSet rows = read.executeQuery()) {
                return rows.next() ? read(rows) : null;
            }
        }
    }

    private static RecurringRow read(ResultSet rows) throws SQLException {
        RecurringDefinition definition = new RecurringDefinition(rows.getString(1), rows.getString(2),
                rows.getString(3), rows.getString(4), rows.getBytes(5), rows.getInt(6), rows.getBoolean(7),
                rows.getBoolean(8));
        return new RecurringRow(definition, rows.getBoolean(9), rows.getLong(10), Columns.nullableLong(rows, 11),
                Columns.nullableLong(rows, 12), Columns.nullableLong(rows, 13), Columns.nullableInt(rows, 14),
                rows.getLong(15));
    }

    /** A tick's steps, in its transaction. */
    static final class Steps implements RecurringFire.Steps {

        private final Connection connection;
        private final String schema;

        Steps(Connection connection, String schema) {
            this.connection = connection;
            this.schema = schema;
        }

        @Override
        public @Nullable RecurringRow row(String id) throws SQLException {
            return RecurringStatements.row(connection, schema, id, ROW_LOCKED);
        }

        @Override
        public boolean recordTick(String id, long tickAt, boolean manual, FiredTick.Outcome outcome, long now)
                throws SQLException {
            try (PreparedStatement insert = connection.prepareStatement(RECORD_TICK.formatted(schema))) {
                insert.setString(1, id);
                insert.setLong(2, tickAt);
                insert.setBoolean(3, manual);
                insert.setLong(4, now);
                insert.setString(5, outcome.name().toLowerCase(Locale.ROOT));
                return insert.executeUpdate() == 1;
            }
        }

        @Override
        public long enqueue(String id, long tickAt, boolean manual, String queue, NewJob job, int maxAttempts,
                            long now) throws SQLException {
            List<Long> ids = EnqueueStatements.insert(connection, schema, queue, List.of(job), maxAttempts, now, 0)
                    .ids();
            long jobId = ids == null ? -1 : ids.get(0);
            try (PreparedStatement update = connection.prepareStatement(TICK_JOB.formatted(schema))) {
                update.setLong(1, jobId);
                update.setString(2, id);
                update.setLong(3, tickAt);
                update.setBoolean(4, manual);
                update.executeUpdate();
            }
            return jobId;
        }

        @Override
        public void moved(String id, @Nullable Long tickAt, @Nullable Long jobId, long now) throws SQLException {
            try (PreparedStatement update = connection.prepareStatement(MOVED.formatted(schema))) {
                setNullableLong(update, 1, tickAt);
                setNullableLong(update, 2, jobId);
                update.setBoolean(3, jobId != null);
                update.setLong(4, now);
                update.setString(5, id);
                update.executeUpdate();
            }
        }

        @Override
        public void prune(String id) throws SQLException {
            try (PreparedStatement delete = connection.prepareStatement(
                    PRUNE.formatted(schema, RecurringFire.TICKS_KEPT - 1))) {
                delete.setString(1, id);
                delete.setString(2, id);
                delete.executeUpdate();
            }
        }

        private static void setNullableLong(PreparedStatement statement, int index, @Nullable Long value)
                throws SQLException {
            if (value == null) {
                statement.setNull(index, Types.BIGINT);
            } else {
                statement.setLong(index, value);
            }
        }
    }
}
