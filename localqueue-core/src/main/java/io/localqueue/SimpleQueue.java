package io.localqueue;

import io.localqueue.internal.engine.Database;
import io.localqueue.internal.engine.Errors;
import io.localqueue.internal.engine.QueueEngine;
import io.localqueue.internal.engine.RetentionPolicy;
import io.localqueue.internal.store.FailedRow;
import io.localqueue.internal.store.JobRow;
import io.localqueue.internal.store.LimitChanges;
import io.localqueue.internal.store.NewJob;
import io.localqueue.internal.store.ReadyRow;
import io.localqueue.internal.store.StoredHeaders;
import io.localqueue.internal.store.StoredText;
import io.localqueue.internal.time.Durations;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * A durable job queue in a SQLite file that many threads and processes can share: jobs survive restarts, each
 * claim holds a fenced lease, failures are retried a bounded number of times and then kept as dead letters.
 * Thread-safe; every call after {@link #close()} throws {@link QueueClosedException}.
 *
 * <pre>{@code
 * try (SimpleQueue<Email> queue = SimpleQueue.builder(Path.of("./data"), Email.class).name("emails").build()) {
 *     queue.put(new Email("hello@example.com"), "welcome-42");
 *     Job<Email> job = queue.get(Duration.ofSeconds(5));
 *     send(job.data());
 *     queue.ack(job);
 * }
 * }</pre>
 *
 * <p>This class is the queue's whole public surface, one documented method per operation, each a thin step to the
 * engine beneath it; most of its length is that documentation.
 *
 * @param <T> the payload type
 * @since 0.1.0
 */
public final class SimpleQueue<T> implements AutoCloseable {

    /** The queue name used when none is given. */
    public static final String DEFAULT_NAME = "default";

    /** How many days acknowledged jobs are kept by default. */
    public static final int DEFAULT_ACKED_RETENTION_DAYS = 7;

    /** How long acknowledged jobs are kept by default: {@value #DEFAULT_ACKED_RETENTION_DAYS} days. */
    public static final Duration DEFAULT_ACKED_RETENTION = Duration.ofDays(DEFAULT_ACKED_RETENTION_DAYS);

    /**
     * The longest delay, lease or retention a queue accepts: 9,007,199,254,740 seconds (about 285,000 years), the
     * bound the Python library uses, so that every time computed from one fits the store's integers.
     *
     * @since 0.1.0
     */
    public static final Duration LONGEST_DURATION = Duration.ofMillis(Durations.MAX_MILLIS);

    /**
     * The most jobs one page of {@link #listJobs(JobState, JobCursor, int)} returns.
     *
     * @since 0.1.0
     */
    public static final int MAX_PAGE = 1000;

    private static final long FOREVER = Durations.FOREVER;

    private final QueueEngine engine;
    private final QueueJobs<T> jobs;
    private final Database database;
    private final Serializer<T> serializer;
    private final String name;
    private final @Nullable Path path;
    private final DeliveryPolicy delivery;
    private final DurabilityMode durability;
    private final OptionalLong maxPendingJobs;
    private final AtomicBoolean closed = new AtomicBoolean();

    private SimpleQueue(Builder<T> builder, Database database) {
        this.database = database;
        this.serializer = builder.serializer;
        this.name = builder.name;
        this.path = builder.path;
        this.delivery = builder.delivery;
        this.durability = builder.durability;
        this.maxPendingJobs = builder.maxPendingJobs;
        this.engine = new QueueEngine(database, name, delivery, durability, maxPendingJobs.orElse(0),
                builder.clock);
        engine.keepFinished(builder.retention);
        engine.storeLimits(builder.limits());
        this.jobs = new QueueJobs<>(engine, name, serializer);
    }

    /**
     * Starts a queue on a directory with JSON payloads mapped to {@code type}.
     *
     * @param directory the queue directory, created if missing; it holds {@code localqueue.db}
     * @param type the payload class
     * @param <T> the payload type
     * @return a builder
     */
    public static <T> Builder<T> builder(Path directory, Class<T> type) {
        return builder(directory, JsonSerializer.of(requireArgument(type, "type")));
    }

    /**
     * Starts a queue on a directory with a custom payload format.
     *
     * @param directory the queue directory, created if missing
     * @param serializer the payload format
     * @param <T> the payload type
     * @return a builder
     */
    public static <T> Builder<T> builder(Path directory, Serializer<T> serializer) {
        requireArgument(directory, "directory");
        return new Builder<>(directory, () -> LocalQueueDatabase.acquire(directory),
                requireArgument(serializer, "serializer"));
    }

    /**
     * Starts a queue on a directory with untyped JSON payloads ({@code Map}, {@code List}, {@code String}…).
     *
     * @param directory the queue directory, created if missing
     * @return a builder
     */
    public static Builder<Object> builder(Path directory) {
        return builder(directory, JsonSerializer.generic());
    }

    /**
     * Starts a queue on a shared database handle with JSON payloads mapped to {@code type}.
     *
     * @param database the shared handle; it stays open when the queue closes
     * @param type the payload class
     * @param <T> the payload type
     * @return a builder
     */
    public static <T> Builder<T> builder(LocalQueueDatabase database, Class<T> type) {
        return builder(database, JsonSerializer.of(requireArgument(type, "type")));
    }

    /**
     * Starts a queue on a shared database handle with a custom payload format.
     *
     * @param database the shared handle; it stays open when the queue closes
     * @param serializer the payload format
     * @param <T> the payload type
     * @return a builder
     */
    public static <T> Builder<T> builder(LocalQueueDatabase database, Serializer<T> serializer) {
        requireArgument(database, "database");
        return new Builder<>(database.isFile() ? database.path() : null, database::acquireShared,
                requireArgument(serializer, "serializer"));
    }

    /**
     * Starts a queue on a shared database handle with untyped JSON payloads.
     *
     * @param database the shared handle; it stays open when the queue closes
     * @return a builder
     */
    public static Builder<Object> builder(LocalQueueDatabase database) {
        return builder(database, JsonSerializer.generic());
    }

    /**
     * Starts a queue in the {@value LocalQueueDatabase#DEFAULT_SCHEMA} schema of the PostgreSQL database a pool of
     * the application's reaches, with JSON payloads mapped to {@code type}; the pool stays open when the queue closes.
     *
     * @param dataSource the pool; queues on one pool in this JVM share one store
     * @param type the payload class
     * @param <T> the payload type
     * @return a builder
     * @since 0.1.0
     */
    public static <T> Builder<T> builder(DataSource dataSource, Class<T> type) {
        return builder(dataSource, JsonSerializer.of(requireArgument(type, "type")));
    }

    /**
     * Starts a queue in the {@value LocalQueueDatabase#DEFAULT_SCHEMA} schema of the PostgreSQL database a pool of
     * the application's reaches, with a custom payload format; another schema is opened with
     * {@link LocalQueueDatabase#open(DataSource, String)}.
     *
     * @param dataSource the pool, which stays open when the queue closes
     * @param serializer the payload format
     * @param <T> the payload type
     * @return a builder
     * @since 0.1.0
     */
    public static <T> Builder<T> builder(DataSource dataSource, Serializer<T> serializer) {
        requireArgument(dataSource, "dataSource");
        return new Builder<>(null, () -> LocalQueueDatabase.acquire(dataSource, LocalQueueDatabase.DEFAULT_SCHEMA),
                requireArgument(serializer, "serializer"));
    }

    /**
     * Commits one job and returns its id, waiting as long as it takes while the queue is at its limit.
     *
     * @param data the payload, not null
     * @return the new job's id
     */
    public long put(T data) {
        return put(data, null, FOREVER);
    }

    /**
     * Commits one job, or returns the id of the job already holding {@code jobId} in this queue (in any state,
     * unchanged); waits as long as it takes while the queue is at its limit.
     *
     * @param data the payload, not null
     * @param jobId the deduplication key, or null for none; a lone UTF-16 surrogate in it is refused when put
     * @return the id of the new or existing job
     */
    public long put(T data, @Nullable String jobId) {
        return put(data, jobId, FOREVER);
    }

    /**
     * Commits one job like {@link #put(Object, String)}, waiting at most {@code timeout} for room;
     * {@code Duration.ZERO} makes a single attempt.
     *
     * @param data the payload, not null
     * @param jobId the deduplication key, or null for none; a lone UTF-16 surrogate in it is refused when put
     * @param timeout how long to wait for room
     * @return the id of the new or existing job
     * @throws QueueFullException when there is still no room once the timeout passes
     */
    public long put(T data, @Nullable String jobId, Duration timeout) {
        return put(data, jobId, EnqueueOptions.defaults(), Durations.timeoutNanos(timeout, "timeout"));
    }

    /**
     * Commits one job like {@link #put(Object, String)}, due, ordered and keyed as {@code options} say: a delayed
     * job is never claimed before its due time, an idle consumer wakes for it then without polling, and among due
     * jobs a smaller priority is claimed first.
     *
     * @param data the payload, not null
     * @param jobId the deduplication key, or null for none; an existing job of that id is returned unchanged, its
     *              own due time, priority and key kept
     * @param options when the job is due, its priority and its key
     * @return the id of the new or existing job
     * @since 0.1.0
     */
    public long put(T data, @Nullable String jobId, EnqueueOptions options) {
        return put(data, jobId, options, FOREVER);
    }

    /**
     * Commits one job like {@link #put(Object, String, EnqueueOptions)}, waiting at most {@code timeout} for room.
     *
     * @param data the payload, not null
     * @param jobId the deduplication key, or null for none
     * @param options when the job is due, its priority and its key
     * @param timeout how long to wait for room; {@code Duration.ZERO} makes a single attempt
     * @return the id of the new or existing job
     * @throws QueueFullException when there is still no room once the timeout passes
     * @since 0.1.0
     */
    public long put(T data, @Nullable String jobId, EnqueueOptions options, Duration timeout) {
        return put(data, jobId, options, Durations.timeoutNanos(timeout, "timeout"));
    }

    private long put(T data, @Nullable String jobId, long timeoutNanos) {
        return put(data, jobId, EnqueueOptions.defaults(), timeoutNanos);
    }

    private long put(T data, @Nullable String jobId, EnqueueOptions options, long timeoutNanos) {
        requireArgument(options, "options");
        NewJob job = options.newJob(serialize(data, "data"), StoredText.requireWellFormed(jobId, "jobId"), Map.of(),
                engine.now());
        return engine.putMany(List.of(job), timeoutNanos).get(0);
    }

    /**
     * Commits all items in one transaction or none of them, returning ids in input order (duplicate job ids
     * resolve to one id, which keeps the payload and headers it has); each item's headers are stored with its job;
     * waits as long as it takes for room, but fails at once when the batch could never fit.
     *
     * @param items the jobs; an empty list returns an empty list
     * @return the ids in input order
     */
    public List<Long> putMany(List<EnqueueItem<T>> items) {
        return putMany(items, FOREVER);
    }

    /**
     * Commits all items like {@link #putMany(List)}, waiting at most {@code timeout} for room.
     *
     * @param items the jobs
     * @param timeout how long to wait for room; {@code Duration.ZERO} makes a single attempt
     * @return the ids in input order
     * @throws QueueFullException when the batch does not fit before the timeout, or at once when it never can
     */
    public List<Long> putMany(List<EnqueueItem<T>> items, Duration timeout) {
        return putMany(items, Durations.timeoutNanos(timeout, "timeout"));
    }

    private List<Long> putMany(List<EnqueueItem<T>> items, long timeoutNanos) {
        return engine.putMany(newJobs(items), timeoutNanos);
    }

    /**
     * Inserts one job through the application's own JDBC connection to this queue's file, inside the transaction the
     * application holds open on it, exactly as {@link #putManyWithin(Connection, List)} does.
     *
     * @param connection a SQLite connection to this queue's {@code localqueue.db}, with auto-commit off
     * @param data the payload, not null
     * @param jobId the deduplication key, or null for none
     * @return the id of the new or existing job; meaningless if the transaction rolls back
     * @throws QueueFullException at once when the queue is at its limit
     * @throws IllegalArgumentException when the connection reaches another database or is in auto-commit mode
     */
    public long putWithin(Connection connection, T data, @Nullable String jobId) {
        return putWithin(connection, data, jobId, EnqueueOptions.defaults());
    }

    /**
     * Inserts one job like {@link #putWithin(Connection, Object, String)}, due, ordered and keyed as {@code options}
     * say.
     *
     * @param connection a SQLite connection to this queue's {@code localqueue.db}, with auto-commit off
     * @param data the payload, not null
     * @param jobId the deduplication key, or null for none
     * @param options when the job is due, its priority and its key
     * @return the id of the new or existing job; meaningless if the transaction rolls back
     * @throws QueueFullException at once when the queue is at its limit
     * @throws IllegalArgumentException when the connection reaches another database or is in auto-commit mode
     * @since 0.1.0
     */
    public long putWithin(Connection connection, T data, @Nullable String jobId, EnqueueOptions options) {
        requireArgument(connection, "connection");
        requireArgument(options, "options");
        NewJob job = options.newJob(serialize(data, "data"), StoredText.requireWellFormed(jobId, "jobId"), Map.of(),
                engine.now());
        return engine.putWithin(connection, List.of(job)).get(0);
    }

    /**
     * Inserts all items through the application's own JDBC connection to this queue's file, inside the transaction
     * the application holds open on it, so that they commit with the application's own rows, or vanish with them
     * when it rolls back; until that commit no consumer sees them. Job-id deduplication and the pending-job limit
     * hold as for {@link #putMany(List)}, but in one attempt: a queue without room throws {@link QueueFullException}
     * at once rather than wait with the application's transaction, and SQLite's write lock, held. The returned ids
     * are the jobs' ids once the transaction commits; after a rollback they mean nothing, and SQLite may give them
     * to other jobs. The commit reaches the disk as the connection's own {@code synchronous} setting says, not as
     * this queue's durability does, and the write waits for other writers only as long as the connection's
     * {@code busy_timeout}. Call {@link #wakeConsumers()} after the commit so that this JVM's consumers look at
     * once. Inside that transaction, write to the file only through the connection: a write of this library's own
     * (a {@code put}, an {@code ack}) waits for the transaction's lock and fails when its write budget runs out.
     *
     * @param connection a SQLite connection to this queue's {@code localqueue.db}, with auto-commit off
     * @param items the jobs; an empty list returns an empty list and touches nothing
     * @return the ids in input order; meaningless if the transaction rolls back
     * @throws QueueFullException at once when the batch does not fit
     * @throws IllegalArgumentException when the connection reaches another database or is in auto-commit mode
     */
    public List<Long> putManyWithin(Connection connection, List<EnqueueItem<T>> items) {
        requireArgument(connection, "connection");
        return engine.putWithin(connection, newJobs(items));
    }

    /**
     * Wakes the threads of this JVM waiting to claim from this queue, so that jobs committed by a transaction of
     * the application's own ({@link #putManyWithin(Connection, List)}) are claimed at once; without it they are
     * claimed once the change watch notices the commit, as for another process's commit.
     */
    public void wakeConsumers() {
        engine.ensureOpen();
        engine.wakeWaiters();
    }

    private List<NewJob> newJobs(List<EnqueueItem<T>> items) {
        requireArgument(items, "items");
        List<NewJob> jobs = new ArrayList<>(items.size());
        long now = engine.now();
        for (int i = 0; i < items.size(); i++) {
            EnqueueItem<T> item = items.get(i);
            if (item == null) {
                throw new IllegalArgumentException("items[" + i + "] must not be null");
            }
            jobs.add(item.options().newJob(serialize(item.data(), "items[" + i + "].data"),
                    StoredText.requireWellFormed(item.jobId(), "items[" + i + "].jobId"),
                    StoredHeaders.require(item.headers(), "items[" + i + "].headers"), now));
        }
        return jobs;
    }

    /**
     * Claims the oldest available job and starts its lease, waiting as long as it takes for one (also while another
     * process holds the write lock); a job whose payload the serializer cannot decode becomes a dead letter
     * ({@link FailureReason#INVALID_PAYLOAD}) and the call throws {@link LocalQueueException} naming it.
     *
     * @return the job
     */
    public Job<T> get() {
        return jobs.job(engine.claim(FOREVER));
    }

    /**
     * Claims the oldest available job, waiting at most {@code timeout}; reclaims expired leases on the way. A job
     * whose payload cannot be decoded becomes a dead letter ({@link FailureReason#INVALID_PAYLOAD}) and the call
     * throws {@link LocalQueueException} naming it.
     *
     * @param timeout how long to wait; {@code Duration.ZERO} behaves like {@link #getNowait()}
     * @return the job
     * @throws QueueEmptyException when no job could be claimed before the timeout, also when another process held the
     *                             write lock until then
     */
    public Job<T> get(Duration timeout) {
        return jobs.job(engine.claim(Durations.timeoutNanos(timeout, "timeout")));
    }

    /**
     * Claims the oldest available job in a single attempt that never waits for another writer's lock. A job whose
     * payload cannot be decoded becomes a dead letter ({@link FailureReason#INVALID_PAYLOAD}) and the call throws
     * {@link LocalQueueException} naming it.
     *
     * @return the job
     * @throws QueueEmptyException when no job is available, or the database is momentarily locked
     */
    public Job<T> getNowait() {
        return jobs.job(engine.claim(0));
    }

    /**
     * Acknowledges a job, which is then done; fenced by its receipt and a live lease.
     *
     * @param job a job claimed from this queue
     * @throws LeaseExpiredException when the lease expired, the job was redelivered, or it is another queue's job
     */
    public void ack(Job<T> job) {
        requireArgument(job, "job");
        engine.ack(job.id(), job.receipt());
        job.settled(HandlerSettlement.of(JobOutcome.ACKED));
    }

    /**
     * Returns a job to the queue at once, keeping its place in line, or makes it a dead letter
     * ({@link FailureReason#RETRIES_EXHAUSTED}) when its delivery budget is spent.
     *
     * @param job a job claimed from this queue
     * @throws LeaseExpiredException when the lease is no longer held
     */
    public void nack(Job<T> job) {
        nack(job, Duration.ZERO, null);
    }

    /**
     * Returns a job to the queue after {@code delay}, recording {@code lastError}, or makes it a dead letter when its
     * delivery budget is spent.
     *
     * @param job a job claimed from this queue
     * @param delay how long the job stays invisible, zero or more
     * @param lastError a diagnostic kept with the job, or null
     * @throws LeaseExpiredException when the lease is no longer held
     */
    public void nack(Job<T> job, Duration delay, @Nullable String lastError) {
        requireArgument(job, "job");
        long delayMillis = Durations.requireNonNegativeMillis(delay, "delay");
        boolean dead = engine.nack(job.id(), job.receipt(), delayMillis, lastError, FailureReason.RETRIES_EXHAUSTED);
        if (dead) {
            job.settled(HandlerSettlement.deadLettered(FailureReason.RETRIES_EXHAUSTED, lastError));
        } else {
            job.settled(HandlerSettlement.of(JobOutcome.RETRIED));
        }
    }

    /**
     * Makes a job a dead letter at once with {@link FailureReason#EXPLICIT_PERMANENT_FAILURE}.
     *
     * @param job a job claimed from this queue
     * @throws LeaseExpiredException when the lease is no longer held
     */
    public void fail(Job<T> job) {
        fail(job, null);
    }

    /**
     * Makes a job a dead letter at once with {@link FailureReason#EXPLICIT_PERMANENT_FAILURE} and a diagnostic.
     *
     * @param job a job claimed from this queue
     * @param lastError a diagnostic kept with the dead letter, or null
     * @throws LeaseExpiredException when the lease is no longer held
     */
    public void fail(Job<T> job, @Nullable String lastError) {
        requireArgument(job, "job");
        engine.fail(job.id(), job.receipt(), lastError, FailureReason.EXPLICIT_PERMANENT_FAILURE, null);
        job.settled(HandlerSettlement.deadLettered(FailureReason.EXPLICIT_PERMANENT_FAILURE, lastError));
    }

    /**
     * Renews a job's lease to now plus {@code duration} and updates {@link Job#leaseExpiresAt()}.
     *
     * @param job a job claimed from this queue
     * @param duration the new lease length, at least one millisecond
     * @return the new expiry
     * @throws LeaseExpiredException when the lease is already lost
     */
    public Instant extendLease(Job<T> job, Duration duration) {
        requireArgument(job, "job");
        return job.renewOn(engine, duration);
    }

    /**
     * Moves every expired lease back to ready, or to the dead letters when its budget is spent; claims do this
     * too, so calling it is only needed to free capacity or tidy up without claiming.
     *
     * @return how many jobs moved
     */
    public int reclaimExpiredLeases() {
        return engine.reclaimExpiredLeases();
    }

    /**
     * Reads whether this queue holds its {@code maxPendingJobs} ready and processing jobs now, so that a put would
     * wait for room; always false without a limit. Nothing is reserved: a put right afterwards may still find the
     * queue full, or room freed. The read counts no further than the limit, whatever the backlog.
     *
     * @return true when the queue is at its limit
     */
    public boolean isFull() {
        return engine.isFull();
    }

    /**
     * Counts this queue's jobs by state in one snapshot, without reclaiming anything; the count steps through every
     * job of the queue (about 50 ms for a million), so frequent readers use {@link #stats(Duration)}.
     *
     * @return the counts
     */
    public QueueStats stats() {
        return engine.stats();
    }

    /**
     * Returns the counts of this queue's last snapshot while it is younger than {@code maxAge}; an older one is
     * returned at once while one recount runs in the background for later calls, and without any snapshot yet the
     * count runs on the calling thread.
     *
     * <p>For readers that ask often, such as health checks and metrics. The snapshot is the one
     * {@link #diagnostics(Duration)} describes, shared by every queue object of this queue on the same database in
     * this JVM; {@link #diagnostics()} refreshes it too. A call gets figures younger than {@code maxAge}, except the
     * call that finds them older and the calls made while the recount it started runs, which get the older ones: a
     * reader asking at least every {@code maxAge} sees figures at most twice {@code maxAge} plus one count's
     * duration old, and after a longer pause the first call gets the figures from before it. Ages are read on this
     * queue's clock. The recount runs on a daemon thread of the database, which stops once the last queue and handle
     * on the database are closed; a recount that fails keeps the old figures, and the next call tries again.
     * {@link #stats()} is the exact count.
     *
     * @param maxAge how old the figures may be before a recount starts; positive
     * @return the counts
     * @throws IllegalArgumentException when {@code maxAge} is null, under one millisecond, zero or negative
     * @since 0.1.0
     */
    public QueueStats stats(Duration maxAge) {
        return engine.stats(Durations.requirePositiveMillis(maxAge, "maxAge"));
    }

    /**
     * Reports this queue's counts, ages and file facts from one consistent read snapshot; it never reclaims,
     * checkpoints or writes, so expired leases still count as processing until something reclaims them. The read
     * holds one count of the queue's jobs, so frequent readers use {@link #diagnostics(Duration)}, whose snapshot
     * this call refreshes.
     *
     * @return the snapshot
     */
    public QueueDiagnostics diagnostics() {
        return engine.diagnostics(serializer.identity());
    }

    /**
     * Describes this queue's last snapshot while it is younger than {@code maxAge}, with this queue object's
     * settings; an older one is described at once while one recount runs in the background for later calls, and
     * without any snapshot yet the count runs on the calling thread.
     *
     * <p>{@link QueueDiagnostics#observedAt()} says when the snapshot was taken, and its ages are measured at that
     * moment. How old the figures may be, and what shares the snapshot, is as for {@link #stats(Duration)}.
     *
     * @param maxAge how old the figures may be before a recount starts; positive
     * @return the snapshot
     * @throws IllegalArgumentException when {@code maxAge} is null, under one millisecond, zero or negative
     * @since 0.1.0
     */
    public QueueDiagnostics diagnostics(Duration maxAge) {
        return engine.diagnostics(serializer.identity(), Durations.requirePositiveMillis(maxAge, "maxAge"));
    }

    /**
     * Runs a full integrity check of the whole database file, reporting at most 100 findings.
     *
     * @return the result; a damaged file gives {@code ok == false}, never an exception
     */
    public IntegrityCheckResult checkIntegrity() {
        return checkIntegrity(IntegrityCheckMode.FULL, 100);
    }

    /**
     * Runs SQLite's integrity check ({@code FULL}) or quick check ({@code QUICK}) and the foreign-key check over
     * the whole database file; findings of both share the {@code maxErrors} budget.
     *
     * @param mode how thoroughly to check
     * @param maxErrors how many findings to report at most, 1 to 1000
     * @return the result; a damaged file gives {@code ok == false}, never an exception
     */
    public IntegrityCheckResult checkIntegrity(IntegrityCheckMode mode, int maxErrors) {
        return engine.checkIntegrity(mode, maxErrors);
    }

    /**
     * Copies the whole database file, while other threads and processes keep working, into a new directory
     * holding a verified {@code localqueue.db}; the copy is one consistent snapshot, so a batch is in it wholly or
     * not at all. On any failure nothing is left behind.
     *
     * @param destinationDirectory a directory that must not exist yet, inside an existing one, outside the queue
     *                             directory
     * @return what was copied and how it was verified
     * @throws LocalQueueException when the directory already exists (caused by
     *                             {@link java.nio.file.FileAlreadyExistsException}) or the copy fails
     */
    public BackupResult backup(Path destinationDirectory) {
        return engine.backup(requireArgument(destinationDirectory, "destinationDirectory"));
    }

    /**
     * Lists the first 100 dead letters by id.
     *
     * @return the dead letters, each decoded on its own
     */
    public List<FailedMessage<T>> listFailed() {
        return listFailed(100, 0);
    }

    /**
     * Lists dead letters by id; a payload that cannot be decoded yields a record with {@code decodeError} set
     * instead of an exception.
     *
     * @param limit how many to return, zero or more
     * @param offset how many to skip, zero or more
     * @return the page
     */
    public List<FailedMessage<T>> listFailed(int limit, int offset) {
        requirePage(limit, offset);
        List<FailedRow> rows = engine.listFailed(limit, offset);
        List<FailedMessage<T>> messages = new ArrayList<>(rows.size());
        for (FailedRow row : rows) {
            messages.add(toFailedMessage(row));
        }
        return messages;
    }

    /**
     * Lists the jobs waiting to be claimed, delayed ones included, in the order claims take them (priority, then due
     * time, then id),
     * reading only: nothing is claimed or changed. A payload that cannot be decoded yields a record with
     * {@code decodeError} set instead of an exception. Jobs under a lease are not listed.
     *
     * @param limit how many to return, zero or more
     * @param offset how many to skip, zero or more
     * @return the page
     * @since 0.1.0
     */
    public List<ReadyJob<T>> listReady(int limit, int offset) {
        requirePage(limit, offset);
        List<ReadyRow> rows = engine.listReady(limit, offset);
        List<ReadyJob<T>> jobs = new ArrayList<>(rows.size());
        for (ReadyRow row : rows) {
            Decoded<T> decoded = decode(row.payload());
            jobs.add(new ReadyJob<>(row.id(), decoded.data(), row.payload(), row.attempts(),
                    Instant.ofEpochMilli(row.availableAt()), Instant.ofEpochMilli(row.createdAt()), row.lastError(),
                    decoded.error(), row.priority(), row.concurrencyKey()));
        }
        return jobs;
    }

    /**
     * Moves one dead letter back to ready with a fresh delivery budget, keeping its id, job id and payload.
     *
     * @param messageId the dead letter's id
     * @throws JobNotFoundException when the id is missing, not a dead letter, or belongs to another queue
     * @throws QueueFullException when the queue is at its limit
     */
    public void retryFailed(long messageId) {
        engine.retryFailed(messageId);
    }

    /**
     * Moves the due time of a job still waiting in this queue, delayed or due, keeping its priority and its place among
     * jobs of its due time by id; an instant already past makes it due at once, and a consumer waiting for the queue
     * wakes for an earlier time. A job under a lease, finished, of another queue or unknown is left alone.
     *
     * @param id the job's id, as {@code put} returned it
     * @param runAt the new due time, on the queue's clock
     * @return true when the job was waiting and now has the new due time; false when nothing was changed
     * @throws InvalidArgumentException naming {@code runAt} when it is null or beyond what a queue can store
     * @since 0.1.0
     */
    public boolean reschedule(long id, Instant runAt) {
        return engine.reschedule(id, Durations.epochMillis(runAt, "runAt"));
    }

    /**
     * Pauses this queue for every process on the file or schema: within a second no consumer anywhere claims its
     * jobs (a claim under way finishes), puts continue, leased jobs run to their end and settle, and the pause
     * outlasts restarts until {@link #resume()}. A {@code Worker}'s or a listener's own {@code pause()} stops one
     * consumer in one process instead.
     *
     * @return true when the queue was running and is paused now; false when it was paused already (its first pause,
     *         with its time and process, stays)
     * @since 0.1.0
     */
    public boolean pause() {
        return engine.pause();
    }

    /**
     * Lets every process claim from this queue again; consumers waiting in this process wake at once, those of other
     * processes at the commit, as for a put.
     *
     * @return true when the queue was paused; false when it was running
     * @since 0.1.0
     */
    public boolean resume() {
        return engine.resume();
    }

    /**
     * Tells whether this queue is paused for every process, reading the file or schema (never a cached answer).
     *
     * @return true while paused
     * @since 0.1.0
     */
    public boolean isPaused() {
        return engine.pauseState() != null;
    }

    /**
     * Counts the claims of this queue object (its {@code get} calls, and those of the workers and listeners on it)
     * that found due jobs and took none because a limit held them back; a waiting consumer tries again when a lease
     * ends or the next permit comes, so the count grows with the time a limit holds the queue back.
     *
     * @param limit the limit
     * @return how many claims it held back since this queue object opened
     * @since 0.1.0
     */
    public long claimsHeldBy(QueueLimit limit) {
        return engine.claimsHeld(requireArgument(limit, "limit"));
    }

    /**
     * Deletes a job still waiting in this queue, delayed or due, with its headers, so that it never runs; its job id is
     * free again. A job under a lease (its handler may be running), finished, of another queue or unknown is left
     * alone, as is an event-bus delivery an execution reports on.
     *
     * @param id the job's id, as {@code put} returned it
     * @return true when the job was waiting and is gone; false when nothing was deleted
     * @since 0.1.0
     */
    public boolean cancel(long id) {
        return engine.cancel(id);
    }

    /**
     * Deletes one dead letter of this queue with its headers; a job in another state, of another queue or unknown is
     * left alone, as is an event-bus delivery an execution reports on.
     *
     * @param messageId the dead letter's id
     * @return true when it was a dead letter and is gone; false when nothing was deleted
     * @since 0.1.0
     */
    public boolean deleteFailed(long messageId) {
        return engine.deleteFailed(messageId);
    }

    /**
     * Lists one page of this queue's jobs in one state, reading only: {@link JobState#READY} and
     * {@link JobState#DELAYED} jobs in claim order (priority, then due time, then id, jobs a full concurrency key holds
     * back last), the others by due time, then id. A page continues after {@code after} without counting the rows
     * before it, so a deep page costs what the first one does; a payload that cannot be decoded yields a job with
     * {@code decodeError} set instead of an exception.
     *
     * @param state the state to list
     * @param after the {@link StoredJob#cursor()} of the previous page's last job, or null for the first page
     * @param limit how many to return, 1 to {@value #MAX_PAGE}
     * @return the page, shorter than {@code limit} only at the end
     * @throws InvalidArgumentException naming {@code state} or {@code limit} when out of range
     * @since 0.1.0
     */
    public List<StoredJob<T>> listJobs(JobState state, @Nullable JobCursor after, int limit) {
        requireArgument(state, "state");
        requirePage(limit);
        List<JobRow> rows = engine.listJobs(state, after, limit);
        List<StoredJob<T>> jobs = new ArrayList<>(rows.size());
        for (JobRow row : rows) {
            jobs.add(toStoredJob(row, state));
        }
        return jobs;
    }

    /**
     * Reads one job of this queue by id, in any state, with its headers, reading only.
     *
     * @param id the job's id, as {@code put} returned it
     * @return the job, or empty when this queue holds no job of that id (another queue's, deleted, or never put)
     * @since 0.1.0
     */
    public Optional<StoredJob<T>> findJob(long id) {
        JobRow row = engine.job(id);
        return row == null ? Optional.empty() : Optional.of(toStoredJob(row, stateOf(row)));
    }

    /**
     * Lists this queue's jobs whose ids lie after {@code afterId} and up to {@code throughId}, in id order, whatever
     * their state, reading only: ids only grow, so a poller that reads up to {@link LocalQueueDatabase#lastJobId()}
     * each time and starts the next read there sees every job put since. The walk goes by id and steps over other
     * queues' jobs of the range. On PostgreSQL an id is drawn before its transaction commits, so a job committed late
     * may fall behind a bound already read: a poller that re-reads a short window behind its bound catches it.
     *
     * @param afterId the range's exclusive start, 0 or more
     * @param throughId the range's inclusive end
     * @param limit how many to return, 1 to {@value #MAX_PAGE}
     * @return the jobs, shorter than {@code limit} only when the range holds no more of this queue's
     * @throws InvalidArgumentException naming {@code afterId} or {@code limit} when out of range
     * @since 0.1.0
     */
    public List<StoredJob<T>> listJobsPut(long afterId, long throughId, int limit) {
        if (afterId < 0) {
            throw new InvalidArgumentException("afterId", "afterId must be 0 or more, got " + afterId);
        }
        requirePage(limit);
        return storedJobs(engine.jobsPut(afterId, throughId, limit));
    }

    /**
     * Reads those of this queue's jobs whose ids are given, in id order, whatever their state, reading only: a
     * watcher's look at the jobs it follows, in one read.
     *
     * @param ids the ids, at most {@value #MAX_PAGE}
     * @return the jobs found; an id of another queue's job, of a deleted one or of none is left out
     * @throws InvalidArgumentException naming {@code ids} when null or longer than a page
     * @since 0.1.0
     */
    public List<StoredJob<T>> findJobs(Collection<Long> ids) {
        requireArgument(ids, "ids");
        if (ids.size() > MAX_PAGE) {
            throw new InvalidArgumentException("ids", "at most " + MAX_PAGE + " ids at once, got " + ids.size());
        }
        if (ids.isEmpty()) {
            return List.of();
        }
        return storedJobs(engine.jobs(ids.stream().mapToLong(Long::longValue).toArray()));
    }

    private List<StoredJob<T>> storedJobs(List<JobRow> rows) {
        List<StoredJob<T>> jobs = new ArrayList<>(rows.size());
        for (JobRow row : rows) {
            jobs.add(toStoredJob(row, stateOf(row)));
        }
        return jobs;
    }

    private static void requirePage(int limit) {
        if (limit < 1 || limit > MAX_PAGE) {
            throw new InvalidArgumentException("limit", "limit must be between 1 and " + MAX_PAGE + ", got " + limit);
        }
    }

    /**
     * Counts this queue's jobs in one state, stepping through no more than {@code cap} of them, so the count of a huge
     * backlog costs what the cap does: a result equal to {@code cap} means "at least that many".
     *
     * @param state the state to count
     * @param cap the most to count, 1 or more
     * @return how many, at most {@code cap}
     * @throws InvalidArgumentException naming {@code state} or {@code cap} when out of range
     * @since 0.1.0
     */
    public long countJobs(JobState state, long cap) {
        requireArgument(state, "state");
        if (cap < 1) {
            throw new InvalidArgumentException("cap", "cap must be 1 or more, got " + cap);
        }
        return engine.countJobs(state, cap);
    }

    private JobState stateOf(JobRow row) {
        return switch (row.status()) {
            case 1 -> JobState.LEASED;
            case 2 -> JobState.ACKED;
            case 3 -> JobState.FAILED;
            default -> row.availableAt() > engine.now() ? JobState.DELAYED : JobState.READY;
        };
    }

    private StoredJob<T> toStoredJob(JobRow row, JobState state) {
        Decoded<T> decoded = decode(row.payload());
        Instant dueAt = Instant.ofEpochMilli(row.availableAt());
        JobCursor cursor = new JobCursor(state == JobState.READY || state == JobState.DELAYED ? row.storedPriority() : 0,
                dueAt, row.id());
        return new StoredJob<>(row.id(), name, row.jobId(), state, decoded.data(), row.payload(), decoded.error(),
                row.headers(), row.attempts(), row.maxAttempts(), row.priority(), row.concurrencyKey(), dueAt,
                row.leaseUntil() == null || state != JobState.LEASED ? null : Instant.ofEpochMilli(row.leaseUntil()),
                Instant.ofEpochMilli(row.createdAt()), Instant.ofEpochMilli(row.updatedAt()), row.lastError(),
                row.failureReason() == null ? null : FailureReason.fromStored(row.failureReason()), cursor);
    }

    /**
     * Deletes acknowledged jobs last changed more than {@code olderThan} ago; pending jobs and dead letters stay.
     *
     * @param olderThan the minimum age, zero or more
     * @return how many rows were deleted
     */
    public int purge(Duration olderThan) {
        return purge(olderThan, false);
    }

    /**
     * Deletes acknowledged jobs, and dead letters too when {@code includeFailed}, last changed more than
     * {@code olderThan} ago; a purged job id can be used again.
     *
     * @param olderThan the minimum age, zero or more
     * @param includeFailed whether dead letters are deleted as well
     * @return how many rows were deleted
     */
    public int purge(Duration olderThan, boolean includeFailed) {
        long olderThanMillis = Durations.requireNonNegativeMillis(olderThan, "olderThan");
        return engine.purge(olderThanMillis, includeFailed);
    }

    /**
     * Runs this queue's retention now on the caller's thread, as the background run does once a minute: the
     * finished jobs older than {@link Builder#retention(Duration, Duration)} keeps them are deleted in transactions of
     * at most 500 rows each; while another process (or another queue object's run) has the queue's turn, nothing is
     * deleted and -1 is returned.
     *
     * @return how many jobs were deleted, or -1 when another run had the queue's turn
     * @since 0.1.0
     */
    public long runRetention() {
        return engine.runRetention();
    }

    /**
     * Rebuilds the whole database file to give free pages back, so that the file has shrunk when it returns (unless
     * a reader of another process still looks at an older snapshot: then at a later checkpoint); it takes the write
     * lock for its duration, so schedule it when the file is quiet.
     */
    public void vacuum() {
        engine.vacuum();
    }

    /**
     * Closes the queue; idempotent. Threads waiting in {@code get} or {@code put} wake and throw
     * {@link QueueClosedException}.
     */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            engine.close();
            database.close();
        }
    }

    /**
     * Returns the queue name; many queues share one file.
     *
     * @return the name
     */
    public String name() {
        return name;
    }

    /**
     * Returns the lease and retry budget of this queue object; the budget is stored with each job it puts.
     *
     * @return the delivery policy
     */
    public DeliveryPolicy delivery() {
        return delivery;
    }

    /**
     * Returns how this queue's commits reach the disk.
     *
     * @return the durability mode
     */
    public DurabilityMode durability() {
        return durability;
    }

    /**
     * Returns this queue object's pending-job limit, which is not stored in the file: every producer must set it.
     *
     * @return the limit, or empty when unlimited
     */
    public OptionalLong maxPendingJobs() {
        return maxPendingJobs;
    }

    /**
     * Returns the queue directory exactly as given to the builder.
     *
     * @return the directory
     * @throws UnsupportedOperationException when the queue is on a database server, which has no directory
     */
    public Path path() {
        if (path == null) {
            throw new UnsupportedOperationException("queue '" + name + "' is on " + database.store().location()
                    + ", which has no queue directory");
        }
        return path;
    }

    /**
     * Returns the payload format.
     *
     * @return the serializer
     */
    public Serializer<T> serializer() {
        return serializer;
    }

    @Override
    public String toString() {
        return "SimpleQueue[name=" + name + ", file=" + database.store().location() + "]";
    }

    /** Returns the engine beneath and the decoding of its claims, for the worker. */
    QueueJobs<T> jobs() {
        return jobs;
    }

    private FailedMessage<T> toFailedMessage(FailedRow row) {
        Decoded<T> decoded = decode(row.payload());
        return new FailedMessage<>(row.id(), decoded.data(), row.payload(), row.attempts(),
                FailureReason.fromStored(row.failureReason()), row.lastError(), row.failureCategory(),
                Instant.ofEpochMilli(row.createdAt()), Instant.ofEpochMilli(row.updatedAt()), decoded.error(),
                row.priority(), row.concurrencyKey());
    }

    /** Decodes a stored payload for a listing, where a payload that cannot be decoded is reported, not thrown. */
    private Decoded<T> decode(byte[] payload) {
        try {
            return new Decoded<>(serializer.deserialize(payload), null);
        } catch (RuntimeException failure) {
            return new Decoded<>(null, Errors.describe(failure));
        }
    }

    private static void requirePage(int limit, int offset) {
        if (limit < 0) {
            throw new InvalidArgumentException("limit", "limit must not be negative, got " + limit);
        }
        if (offset < 0) {
            throw new InvalidArgumentException("offset", "offset must not be negative, got " + offset);
        }
    }

    private record Decoded<T>(@Nullable T data, @Nullable String error) {
    }

    byte[] serialize(@Nullable T data, String parameter) {
        engine.ensureOpen();
        if (data == null) {
            throw new InvalidArgumentException(parameter, parameter + " must not be null");
        }
        byte[] bytes;
        try {
            bytes = serializer.serialize(data);
        } catch (RuntimeException failure) {
            throw new InvalidArgumentException(parameter, parameter + " cannot be serialized by " + serializer.identity() + ": "
                    + failure.getMessage(), failure);
        }
        if (bytes == null) {
            throw new InvalidArgumentException(parameter, parameter + " was serialized to null by " + serializer.identity());
        }
        if (bytes.length > Serializer.MAX_PAYLOAD_BYTES) {
            throw new InvalidArgumentException(parameter, parameter + " was serialized by " + serializer.identity() + " to "
                    + bytes.length + " bytes, over the limit of " + Serializer.MAX_PAYLOAD_BYTES + " bytes");
        }
        return bytes;
    }

    private static <V> V requireArgument(@Nullable V value, String name) {
        if (value == null) {
            throw new InvalidArgumentException(name, name + " must not be null");
        }
        return value;
    }

    /**
     * Configures a {@link SimpleQueue}; every setter validates at once and names the bad parameter.
     *
     * @param <T> the payload type
     *
     * @since 0.1.0
     */
    public static final class Builder<T> {

        private final @Nullable Path path;
        private final Supplier<Database> database;
        private final Serializer<T> serializer;
        private String name = DEFAULT_NAME;
        private DeliveryPolicy delivery = DeliveryPolicy.defaults();
        private DurabilityMode durability = DurabilityMode.RELAXED;
        private OptionalLong maxPendingJobs = OptionalLong.empty();
        private Clock clock = Clock.systemUTC();
        private RetentionPolicy retention = new RetentionPolicy(DEFAULT_ACKED_RETENTION.toMillis(),
                RetentionPolicy.KEEP);
        private @Nullable Integer maxConcurrent;
        private @Nullable Integer maxConcurrentPerKey;
        private @Nullable Integer ratePermits;
        private long ratePeriodMillis;

        private Builder(@Nullable Path path, Supplier<Database> database, Serializer<T> serializer) {
            this.path = path;
            this.database = database;
            this.serializer = serializer;
        }

        /**
         * Sets the logical queue name; queues with different names in one file never see each other's jobs.
         *
         * @param name a non-blank name without lone UTF-16 surrogates; default {@value SimpleQueue#DEFAULT_NAME}
         * @return this builder
         * @throws IllegalArgumentException when the name is blank or holds a lone surrogate
         */
        public Builder<T> name(String name) {
            if (name == null || name.isBlank()) {
                throw new InvalidArgumentException("name", "name must not be blank");
            }
            this.name = StoredText.requireWellFormed(name, "name");
            return this;
        }

        /**
         * Sets the lease and retry budget; default {@link DeliveryPolicy#defaults()}.
         *
         * @param delivery the policy
         * @return this builder
         */
        public Builder<T> delivery(DeliveryPolicy delivery) {
            this.delivery = requireArgument(delivery, "delivery");
            return this;
        }

        /**
         * Sets how commits reach the disk; default {@link DurabilityMode#RELAXED}.
         *
         * @param durability the mode
         * @return this builder
         */
        public Builder<T> durability(DurabilityMode durability) {
            this.durability = requireArgument(durability, "durability");
            return this;
        }

        /**
         * Limits ready plus processing jobs; producers then wait (or fail after their timeout) while the queue is
         * full. Not stored in the file: configure every producer alike.
         *
         * @param maxPendingJobs a positive limit
         * @return this builder
         */
        public Builder<T> maxPendingJobs(long maxPendingJobs) {
            if (maxPendingJobs <= 0) {
                throw new InvalidArgumentException("maxPendingJobs", "maxPendingJobs must be positive, got " + maxPendingJobs);
            }
            this.maxPendingJobs = OptionalLong.of(maxPendingJobs);
            return this;
        }

        /**
         * Sets the clock that stamps rows and decides lease expiry, for tests that move time; waits still use real
         * time.
         *
         * @param clock the clock; default the system UTC clock
         * @return this builder
         */
        public Builder<T> clock(Clock clock) {
            this.clock = requireArgument(clock, "clock");
            return this;
        }

        /**
         * Sets how long finished jobs are kept before they are deleted in the background, in small batches, by one
         * process at a time; by default acknowledged jobs are kept {@value #DEFAULT_ACKED_RETENTION_DAYS} days and
         * dead letters until purged. Pending and leased jobs are never deleted. With several queue objects of one
         * queue open in this JVM, the longest keeping applies; other processes delete by their own settings.
         *
         * @param acked how long after its acknowledgement a job is kept, zero or more
         * @param failed how long after it failed a dead letter is kept, zero or more; null keeps dead letters until
         *               {@link SimpleQueue#purge(Duration, boolean)} or {@link SimpleQueue#retryFailed(long)}
         * @return this builder
         * @throws InvalidArgumentException naming {@code acked} or {@code failed} when it is null (acked), negative or
         *                                  beyond what a queue can store
         * @since 0.1.0
         */
        public Builder<T> retention(Duration acked, @Nullable Duration failed) {
            this.retention = new RetentionPolicy(Durations.requireNonNegativeMillis(acked, "acked"),
                    failed == null ? RetentionPolicy.KEEP : Durations.requireNonNegativeMillis(failed, "failed"));
            return this;
        }

        /**
         * Limits how many of the queue's jobs are leased at once, across every process on the store: a claim takes
         * only as many due jobs as leave at most this many leased, and the rest wait without spending an attempt until
         * an acknowledgement, a failure, a release or an expired lease frees a slot. The limit is the queue's, stored
         * when this queue object opens, so every process obeys the one opened last with a limit; a queue object built
         * without this call leaves the stored limit as it is.
         *
         * @param maxConcurrent a positive limit, or 0 to lift the stored one
         * @return this builder
         * @throws InvalidArgumentException naming {@code maxConcurrent} when it is negative
         * @since 0.1.0
         */
        public Builder<T> maxConcurrent(int maxConcurrent) {
            this.maxConcurrent = requireLimit(maxConcurrent, "maxConcurrent");
            return this;
        }

        /**
         * Limits how many jobs of one {@link EnqueueOptions#concurrencyKey(String) concurrency key} are leased at once,
         * across every process on the store; a job whose key is full waits without spending an attempt and without
         * holding back jobs of other keys or jobs without a key, which claims take in its place. Stored as the
         * queue's, like {@link #maxConcurrent(int)}.
         *
         * @param maxConcurrentPerKey a positive limit, or 0 to lift the stored one (held jobs go back in line)
         * @return this builder
         * @throws InvalidArgumentException naming {@code maxConcurrentPerKey} when it is negative
         * @since 0.1.0
         */
        public Builder<T> maxConcurrentPerKey(int maxConcurrentPerKey) {
            this.maxConcurrentPerKey = requireLimit(maxConcurrentPerKey, "maxConcurrentPerKey");
            return this;
        }

        /**
         * Limits how many jobs are claimed (first deliveries and redeliveries alike) in any window of {@code period},
         * across every process on the store; due jobs beyond it stay ready, spend no attempt, and a waiting consumer
         * sleeps until the next permit. Stored as the queue's, like {@link #maxConcurrent(int)}; a new period counts
         * the claims the log still holds.
         *
         * @param permits how many claims a period holds, positive, or 0 to lift the stored limit
         * @param period the window, whole milliseconds from 1 ms to {@link SimpleQueue#LONGEST_DURATION}; ignored when
         *               lifting
         * @return this builder
         * @throws InvalidArgumentException naming {@code permits} or {@code period} when out of range
         * @since 0.1.0
         */
        public Builder<T> rateLimit(int permits, Duration period) {
            int checked = requireLimit(permits, "permits");
            long millis = 0;
            if (checked > 0) {
                millis = Durations.requireNonNegativeMillis(period, "period");
                if (millis == 0) {
                    throw new InvalidArgumentException("period", "period must be at least 1 ms, got " + period);
                }
                if (period.getNano() % 1_000_000 != 0) {
                    throw new InvalidArgumentException("period", "period must be a whole number of milliseconds (the"
                            + " log counts in them), got " + period);
                }
            }
            this.ratePermits = checked;
            this.ratePeriodMillis = millis;
            return this;
        }

        private static int requireLimit(int limit, String name) {
            if (limit < 0) {
                throw new InvalidArgumentException(name, name + " must be positive, or 0 to lift it, got " + limit);
            }
            return limit;
        }

        private LimitChanges limits() {
            return new LimitChanges(maxConcurrent, maxConcurrentPerKey, ratePermits, ratePeriodMillis);
        }

        /**
         * Opens the queue, creating the directory, file and schema (or a server's schema and tables) as needed.
         *
         * @return the open queue
         * @throws LocalQueueException when the directory, file or server cannot be used
         */
        public SimpleQueue<T> build() {
            return new SimpleQueue<>(this, database.get());
        }
    }
}
