package io.localqueue;

import io.localqueue.internal.engine.Database;
import io.localqueue.internal.recurring.RecurringScheduler;
import io.localqueue.internal.store.FiredTick;
import io.localqueue.internal.store.RecurringRow;
import io.localqueue.internal.store.TickFire;
import io.localqueue.internal.store.WriteOptions;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The recurring jobs of one database: define, list, enable, disable, run now and delete them from any process, and,
 * once {@link #start() started}, fire their ticks from this one. Every process that starts it fires the same ticks and
 * each tick enqueues its job once: the tick is recorded with a row unique to the job and the tick in the transaction
 * that enqueues the job, so no process leads and none is needed for the schedule to go on. A definition changed, enabled
 * or disabled by any process is seen by the others within a second, without a restart.
 *
 * <pre>{@code
 * try (LocalQueueDatabase database = LocalQueueDatabase.open(Path.of("./data"));
 *      RecurringJobs recurring = RecurringJobs.on(database)) {
 *     SimpleQueue<ReportRequest> reports = SimpleQueue.builder(database, ReportRequest.class).name("reports").build();
 *     recurring.schedule(RecurringJob.builder("nightly-report", "0 0 2 * * *")
 *             .enqueue(reports, new ReportRequest("daily")).build());
 *     recurring.start();
 *     // ... a Worker on reports runs each night's job
 * }
 * }</pre>
 *
 * <p>A tick fires at its time, or up to 10 seconds late when every process was busy; a tick later than that was missed
 * (no process ran the schedule) and runs once when one starts again, or is passed over
 * ({@link RecurringJob.MissedTicks}); of several missed ticks only the last can run, so downtime never brings a burst.
 * A tick is never fired before its time by the clock of the process that fires it, and never twice. The job a tick
 * enqueues carries the headers {@code localqueue.recurring.id} and {@code localqueue.recurring.tick} (an ISO-8601
 * instant).
 *
 * @since 0.1.0
 */
public final class RecurringJobs implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RecurringJobs.class);

    /** How long the scheduler waits after a pass that failed (a busy or unreachable database) before the next. */
    private static final long RETRY_MILLIS = 1_000;

    private final Database database;
    private final Clock clock;
    private final RecurringScheduler scheduler;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private @Nullable Thread thread;

    private RecurringJobs(Database database, Clock clock) {
        this.database = database;
        this.clock = clock;
        this.scheduler = new RecurringScheduler(database.store(), this::requireOpen, clock);
    }

    /**
     * Opens the recurring jobs of a database, on the system clock; nothing fires from this process until
     * {@link #start()}.
     *
     * @param database the database, which stays open while this is
     * @return the handle; close it to stop firing
     * @since 0.1.0
     */
    public static RecurringJobs on(LocalQueueDatabase database) {
        return on(database, Clock.systemUTC());
    }

    /**
     * Opens the recurring jobs of a database, judging ticks by a clock of the caller's (a test's, say).
     *
     * @param database the database, which stays open while this is
     * @param clock the clock ticks are judged by
     * @return the handle; close it to stop firing
     * @since 0.1.0
     */
    public static RecurringJobs on(LocalQueueDatabase database, Clock clock) {
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(clock, "clock");
        return new RecurringJobs(database.acquireShared(), clock);
    }

    /**
     * Stores a definition, new or changed: a new one is enabled and its first tick is the first after now; a change of
     * cron or zone starts the schedule again from now (no tick of the old schedule fires late); a change of queue,
     * payload or policy applies from the next tick; whether it is enabled is kept.
     *
     * @param job the definition
     * @return the recurring job as stored, with its next tick
     * @since 0.1.0
     */
    public RecurringJob schedule(RecurringJob job) {
        Objects.requireNonNull(job, "job");
        RecurringRow row = write("schedule recurring job",
                writes -> writes.recurring().save(job.definition(), clock.millis()));
        wake();
        return RecurringJob.stored(row);
    }

    /**
     * Lists the stored recurring jobs, in id order, each with its last and next tick.
     *
     * @return the recurring jobs; empty for none
     * @since 0.1.0
     */
    public List<RecurringJob> list() {
        requireOpen();
        return database.store().recurringJobs().stream().map(RecurringJob::stored).toList();
    }

    /**
     * Reads one stored recurring job.
     *
     * @param id its id
     * @return the recurring job, or null when there is none of that id
     * @since 0.1.0
     */
    public @Nullable RecurringJob find(String id) {
        Objects.requireNonNull(id, "id");
        return list().stream().filter(job -> job.id().equals(id)).findFirst().orElse(null);
    }

    /**
     * Enables a disabled recurring job; its schedule starts again from now, so the ticks it was disabled for never run.
     *
     * @param id its id
     * @return false when there is none of that id, or it was enabled
     * @since 0.1.0
     */
    public boolean enable(String id) {
        return setEnabled(id, true);
    }

    /**
     * Disables a recurring job: no process fires its ticks until it is enabled again; jobs already enqueued stay.
     *
     * @param id its id
     * @return false when there is none of that id, or it was disabled
     * @since 0.1.0
     */
    public boolean disable(String id) {
        return setEnabled(id, false);
    }

    /**
     * Deletes a recurring job and its record of ticks; the jobs its ticks enqueued stay in their queue.
     *
     * @param id its id
     * @return false when there was none of that id
     * @since 0.1.0
     */
    public boolean delete(String id) {
        Objects.requireNonNull(id, "id");
        boolean deleted = write("delete recurring job", writes -> writes.recurring().delete(id));
        wake();
        return deleted;
    }

    /**
     * Enqueues the recurring job's job now, as a tick run by hand: enabled or not, whatever the overlap policy, and
     * without moving its schedule. The job carries the header {@code localqueue.recurring.manual=true}.
     *
     * @param id its id
     * @return the enqueued job's id, or null when there is no recurring job of that id
     * @since 0.1.0
     */
    public @Nullable Long runNow(String id) {
        Objects.requireNonNull(id, "id");
        requireOpen();
        long at = clock.millis();
        while (true) {
            FiredTick fired = scheduler.fire(new TickFire(id, at, TickFire.Kind.MANUAL, 0, clock.millis()));
            switch (fired.outcome()) {
                case ENQUEUED -> {
                    return fired.jobId();
                }
                case ALREADY_DONE -> at++; // a run by hand at the same millisecond: this one takes the next
                default -> {
                    return null;
                }
            }
        }
    }

    /**
     * Starts firing the ticks of every enabled recurring job of the database from this process, on a daemon thread,
     * until {@link #close()}; calling it again does nothing. The ticks that fell due before count as missed, however
     * recent, so a restart never brings a burst.
     *
     * @return this handle
     * @since 0.1.0
     */
    public RecurringJobs start() {
        requireOpen();
        lock.lock();
        try {
            if (thread == null) {
                scheduler.beginRunning();
                Thread started = new Thread(this::run, "localqueue-recurring " + database.store().location());
                started.setDaemon(true);
                thread = started;
                started.start();
            }
        } finally {
            lock.unlock();
        }
        return this;
    }

    /**
     * Fires the ticks due now, in the calling thread, and tells when the next pass is due: what the started thread does
     * on every pass, for tests that move a clock of their own.
     *
     * @return when the next pass is due, in epoch milliseconds on this handle's clock
     */
    long runDue() {
        requireOpen();
        return scheduler.runDue();
    }

    /**
     * Stops firing ticks from this process, waiting for a tick being fired to commit, and releases the database.
     *
     * @since 0.1.0
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        Thread running;
        lock.lock();
        try {
            running = thread;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        if (running != null) {
            try {
                running.join(TimeUnit.SECONDS.toMillis(30));
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        database.close();
    }

    private void run() {
        while (!closed.get()) {
            long next;
            try {
                next = scheduler.runDue();
            } catch (RuntimeException failure) {
                if (closed.get()) {
                    return;
                }
                log.warn("Recurring jobs of {}: a pass failed, trying again in {} ms: {}",
                        database.store().location(), RETRY_MILLIS, failure.toString());
                next = clock.millis() + RETRY_MILLIS;
            }
            awaitUntil(next);
        }
    }

    /** Waits until the clock reaches {@code next}, a change of this process's, or the close. */
    private void awaitUntil(long next) {
        lock.lock();
        try {
            long waitMillis = next - clock.millis();
            if (waitMillis > 0 && !closed.get()) {
                changed.await(Math.min(waitMillis, RecurringScheduler.REFRESH_MILLIS), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            closed.set(true);
        } finally {
            lock.unlock();
        }
    }

    private void wake() {
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private boolean setEnabled(String id, boolean enabled) {
        Objects.requireNonNull(id, "id");
        boolean done = write(enabled ? "enable recurring job" : "disable recurring job",
                writes -> writes.recurring().setEnabled(id, enabled, clock.millis()));
        wake();
        return done;
    }

    private <R> R write(String transaction, io.localqueue.internal.store.StoreWork<R> work) {
        requireOpen();
        return database.store().write(WriteOptions.standard(transaction, DurabilityMode.DURABLE), this::requireOpen,
                work);
    }

    private void requireOpen() {
        if (closed.get()) {
            throw new IllegalStateException("recurring jobs of " + database.store().location() + " are closed");
        }
    }
}
