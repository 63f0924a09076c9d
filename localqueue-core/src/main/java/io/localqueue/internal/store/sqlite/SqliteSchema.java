package io.localqueue.internal.store.sqlite;

import io.localqueue.LocalQueueException;
import io.localqueue.internal.store.HeldPriority;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The storage layout shared with the Python library (table {@code messages}, its three indexes, status codes 0-3,
 * epoch-millisecond timestamps) plus additions the Python library ignores (two nullable columns of
 * {@code messages}, {@code priority} and {@code concurrency_key}; the partial index of prioritized ready rows; the
 * tables {@code message_headers}, {@code queue_priorities} and {@code localqueue_turns}), and the checks that refuse a file which is not a
 * localqueue database before anything is written to it.
 */
final class SqliteSchema {

    /** Columns every localqueue database has had since 1.0; a {@code messages} table without them is foreign. */
    private static final Set<String> BASE_COLUMNS = Set.of(
            "id", "queue", "payload", "status", "attempts", "max_attempts", "available_at", "lease_until",
            "receipt", "last_error", "job_id", "created_at", "updated_at");

    private static final String CREATE_MESSAGES = """
            CREATE TABLE IF NOT EXISTS messages (
                id                INTEGER PRIMARY KEY AUTOINCREMENT,
                queue             TEXT NOT NULL,
                payload           BLOB NOT NULL,
                status            INTEGER NOT NULL,
                attempts          INTEGER NOT NULL DEFAULT 0,
                max_attempts      INTEGER NOT NULL,
                available_at      INTEGER NOT NULL,
                lease_until       INTEGER,
                receipt           TEXT,
                last_error        TEXT,
                failure_reason    TEXT,
                failure_category  TEXT,
                job_id            TEXT,
                dedup_key         TEXT,
                dedup_fingerprint TEXT,
                created_at        INTEGER NOT NULL,
                updated_at        INTEGER NOT NULL
            )""";

    /** Columns added after 1.0, in the order the Python library added them; each is nullable TEXT. */
    private static final List<String> ADDED_COLUMNS = List.of(
            "failure_reason", "failure_category", "dedup_key", "dedup_fingerprint");

    /**
     * Columns of this library's own, nullable and without defaults, so the Python library's inserts (which name their
     * columns) and claims (which ignore them) work on the file as before: a job's claim priority (NULL is the
     * default, 0) and its concurrency key.
     */
    private static final List<String> LOCAL_COLUMNS = List.of("priority INTEGER", "concurrency_key TEXT");

    private static final List<String> LOCAL_COLUMN_NAMES = List.of("priority", "concurrency_key");

    /**
     * The ready rows of queues that use priorities, in claim order (priority, due time, id): only rows with a
     * priority enter it, and a queue's rows get one (0 by default) once the queue is in {@code queue_priorities}, so
     * a queue that never used a priority writes no entry here.
     */
    static final String PRIORITY_INDEX = "idx_messages_priority";

    /** The ready rows held back by a full concurrency key ({@link HeldPriority}), by key. */
    static final String HELD_INDEX = "idx_messages_held";

    /** The leased rows that have a concurrency key, by key. */
    static final String LEASED_KEYS_INDEX = "idx_messages_leased_keys";

    private static final List<String> LOCAL_INDEXES = List.of(
            "CREATE INDEX IF NOT EXISTS " + PRIORITY_INDEX + " ON messages(queue, priority, available_at) "
                    + "WHERE status = 0 AND priority IS NOT NULL",
            // The ready rows a full concurrency key holds back, by key in claim order; no other row enters it.
            "CREATE INDEX IF NOT EXISTS " + HELD_INDEX + " ON messages(queue, concurrency_key, priority, available_at) "
                    + "WHERE status = 0 AND priority > " + HeldPriority.CLAIMABLE,
            // The leased rows that have a concurrency key, counted per key by a claim under a per-key limit.
            "CREATE INDEX IF NOT EXISTS " + LEASED_KEYS_INDEX + " ON messages(queue, concurrency_key) "
                    + "WHERE status = 1 AND concurrency_key IS NOT NULL");

    /**
     * The queues that use priorities, one row each from a queue's first prioritized put, with how far (by message
     * id) its rows without a priority were given the default one, so rows the Python library puts, which name no
     * priority, still enter the claim order.
     */
    private static final String CREATE_QUEUE_PRIORITIES = """
            CREATE TABLE IF NOT EXISTS queue_priorities (
                queue         TEXT PRIMARY KEY,
                swept_through INTEGER NOT NULL
            )""";

    /**
     * The controls of a queue shared by every process on the file, one row per queue that ever had one: its pause
     * (when and by whom; NULL while it runs) and its limits (NULL for none).
     */
    private static final String CREATE_QUEUE_CONTROLS = """
            CREATE TABLE IF NOT EXISTS queue_controls (
                queue          TEXT PRIMARY KEY,
                paused_at      INTEGER,
                paused_by      TEXT,
                max_concurrent INTEGER,
                max_per_key    INTEGER,
                rate_permits   INTEGER,
                rate_period    INTEGER
            )""";

    /**
     * The rate limit's log: the claims of a queue per 64th of its period (at the part's end, see
     * {@code QueueLimits.rateLogTime}), each entry with the running total of the queue's claims up to it, so that the
     * claims of any period are counted by two seeks (the last entry's total less that of the last entry before the
     * period) and a claim writes one entry.
     */
    private static final String CREATE_QUEUE_CLAIMS = """
            CREATE TABLE IF NOT EXISTS queue_claims (
                queue      TEXT NOT NULL,
                claimed_at INTEGER NOT NULL,
                taken      INTEGER NOT NULL,
                total      INTEGER NOT NULL,
                PRIMARY KEY (queue, claimed_at)
            )""";

    /**
     * The recurring jobs of the file, one row each: the definition (what a tick enqueues, where, on which cron), whether
     * it fires, and where its schedule stands (the anchor it starts after, the last tick fired or passed over, the job
     * the last tick enqueued), with a version that every change of the definition moves.
     */
    private static final String CREATE_RECURRING_JOBS = """
            CREATE TABLE IF NOT EXISTS recurring_jobs (
                id            TEXT PRIMARY KEY,
                queue         TEXT NOT NULL,
                cron          TEXT NOT NULL,
                zone          TEXT NOT NULL,
                payload       BLOB NOT NULL,
                max_attempts  INTEGER NOT NULL,
                skip_missed   INTEGER NOT NULL,
                allow_overlap INTEGER NOT NULL,
                enabled       INTEGER NOT NULL,
                anchor        INTEGER NOT NULL,
                last_tick     INTEGER,
                last_fired_at INTEGER,
                last_job      INTEGER,
                version       INTEGER NOT NULL,
                created_at    INTEGER NOT NULL,
                updated_at    INTEGER NOT NULL
            )""";

    /**
     * The ticks of recurring jobs, one row per job, tick time and kind (scheduled or run by hand): the row every process
     * that fires a tick tries to insert in the tick's transaction, so one of them enqueues its job; with what it did
     * and the message id of the job. The last ones of each job are kept.
     */
    private static final String CREATE_RECURRING_TICKS = """
            CREATE TABLE IF NOT EXISTS recurring_ticks (
                recurring_id TEXT NOT NULL,
                tick_at      INTEGER NOT NULL,
                manual       INTEGER NOT NULL,
                fired_at     INTEGER NOT NULL,
                outcome      TEXT NOT NULL,
                message_id   INTEGER,
                PRIMARY KEY (recurring_id, tick_at, manual)
            )""";

    /**
     * Named turns of background work that one process at a time does (a queue's retention): who has the turn and
     * until when, and when it last finished with what result.
     */
    private static final String CREATE_TURNS = """
            CREATE TABLE IF NOT EXISTS localqueue_turns (
                name         TEXT PRIMARY KEY,
                holder       TEXT,
                until        INTEGER NOT NULL DEFAULT 0,
                last_run     INTEGER,
                last_deleted INTEGER
            )""";

    private static final List<String> INDEXES = List.of(
            "CREATE UNIQUE INDEX IF NOT EXISTS idx_messages_job_id ON messages(queue, job_id) WHERE job_id IS NOT NULL",
            "CREATE UNIQUE INDEX IF NOT EXISTS idx_messages_dedup_key ON messages(queue, dedup_key) WHERE dedup_key IS NOT NULL",
            // Also walks ready rows in claim order without sorting: a ready row's lease_until is NULL, and every
            // entry ends with the rowid, so (available_at, lease_until, id) is (due time, then id).
            "CREATE INDEX IF NOT EXISTS idx_messages_queue_status ON messages(queue, status, available_at, lease_until)");

    /**
     * The claim index earlier versions of this library added; the reference index serves claims as well, so every
     * open drops it and each write maintains one B-tree fewer.
     */
    private static final String DROP_CLAIM_INDEX = "DROP INDEX IF EXISTS idx_messages_claim";

    /**
     * Headers of the jobs put with some, one row per job, keyed by its message id and deleted with it (the Python
     * library, which never reads this table, enforces foreign keys too, so its purge removes them as well). A table
     * rather than a column keeps {@code messages} exactly as the Python library declares it.
     */
    private static final String CREATE_MESSAGE_HEADERS = """
            CREATE TABLE IF NOT EXISTS message_headers (
                message_id INTEGER PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
                headers    TEXT NOT NULL
            )""";

    /**
     * The layout version this release reads and writes, kept in {@code PRAGMA user_version}. The layout shared
     * with the Python library 1.x is 0 (neither library sets it); a release with an incompatible layout sets a
     * higher number, and older releases refuse such a file instead of damaging it.
     */
    static final int LAYOUT_VERSION = 0;

    private SqliteSchema() {
    }

    /**
     * Refuses a file that is not a localqueue database, reading only: an unreadable or corrupt file, or a SQLite
     * database holding other tables but no {@code messages} table of the expected shape.
     */
    static void requireLocalQueueDatabase(Connection connection, Path file) {
        try {
            int layout = layoutVersion(connection);
            if (layout > LAYOUT_VERSION) {
                throw new LocalQueueException(file + " was written by a newer, incompatible localqueue (layout version "
                        + layout + "; this version reads up to " + LAYOUT_VERSION + "); open it with that version");
            }
            Set<String> tables = tables(connection);
            if (tables.contains("messages")) {
                Set<String> missing = new TreeSet<>(BASE_COLUMNS);
                missing.removeAll(columns(connection));
                if (!missing.isEmpty()) {
                    throw new LocalQueueException(file + " is not a localqueue database: its messages table lacks "
                            + "columns " + missing);
                }
            } else if (!tables.isEmpty()) {
                throw new LocalQueueException(file + " is not a localqueue database: it holds tables " + tables
                        + " but no messages table");
            }
        } catch (SQLException failure) {
            throw new LocalQueueException(file + " is not a usable localqueue database: " + failure.getMessage(),
                    failure);
        }
    }

    /**
     * Creates the schema, or adds what an older version lacks, inside the caller's write transaction; every step is
     * idempotent, so concurrent opens from several processes converge, and existing rows are never rewritten.
     */
    static void createOrMigrate(Connection connection, Path file) throws SQLException {
        requireLocalQueueDatabase(connection, file);
        try (Statement statement = connection.createStatement()) {
            if (!tables(connection).contains("messages")) {
                statement.executeUpdate(CREATE_MESSAGES);
            }
            Set<String> present = columns(connection);
            for (String column : ADDED_COLUMNS) {
                if (!present.contains(column)) {
                    statement.executeUpdate("ALTER TABLE messages ADD COLUMN " + column + " TEXT");
                }
            }
            for (String column : LOCAL_COLUMNS) {
                if (!present.contains(column.substring(0, column.indexOf(' ')))) {
                    statement.executeUpdate("ALTER TABLE messages ADD COLUMN " + column);
                }
            }
            for (String index : INDEXES) {
                statement.executeUpdate(index);
            }
            for (String index : LOCAL_INDEXES) {
                statement.executeUpdate(index);
            }
            statement.executeUpdate(DROP_CLAIM_INDEX);
            statement.executeUpdate(CREATE_MESSAGE_HEADERS);
            statement.executeUpdate(CREATE_QUEUE_PRIORITIES);
            statement.executeUpdate(CREATE_TURNS);
            statement.executeUpdate(CREATE_QUEUE_CONTROLS);
            statement.executeUpdate(CREATE_QUEUE_CLAIMS);
            statement.executeUpdate(CREATE_RECURRING_JOBS);
            statement.executeUpdate(CREATE_RECURRING_TICKS);
        }
    }

    /** Tells whether the schema already has everything this version needs, so an open can skip the write lock. */
    static boolean isCurrent(Connection connection) throws SQLException {
        Set<String> tables = tables(connection);
        Set<String> columns = columns(connection);
        if (!tables.containsAll(List.of("messages", "message_headers", "queue_priorities", "localqueue_turns",
                "queue_controls", "queue_claims", "recurring_jobs", "recurring_ticks"))
                || !columns.containsAll(ADDED_COLUMNS) || !columns.containsAll(LOCAL_COLUMN_NAMES)) {
            return false;
        }
        Set<String> indexes = names(connection,
                "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'messages'");
        return indexes.containsAll(List.of("idx_messages_job_id", "idx_messages_dedup_key",
                "idx_messages_queue_status", PRIORITY_INDEX, HELD_INDEX, LEASED_KEYS_INDEX)) && !indexes.contains("idx_messages_claim");
    }

    private static int layoutVersion(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("PRAGMA user_version")) {
            rows.next();
            return rows.getInt(1);
        }
    }

    static Set<String> tables(Connection connection) throws SQLException {
        return names(connection,
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name");
    }

    private static Set<String> columns(Connection connection) throws SQLException {
        return names(connection, "SELECT name FROM pragma_table_info('messages')");
    }

    /** Reads the first column of every row a catalogue query returns, in order. */
    private static Set<String> names(Connection connection, String sql) throws SQLException {
        Set<String> names = new LinkedHashSet<>();
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            while (rows.next()) {
                names.add(rows.getString(1));
            }
        }
        return names;
    }
}
