package io.localqueue.internal.consumer;

import java.time.Duration;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;

/**
 * Runs one consumer's reports (its observers, and through them metrics and dead-letter alerts) one at a time and in
 * order, on a thread of its own, named {@code localqueue-report-<consumer>}: neither the
 * database's committer, which records the settlements of every consumer on the database, nor the consumer's handlers
 * wait for a slow observer, which delays only the reports after it. The thread starts with the first report and ends
 * after {@value #IDLE_SECONDS} s without one. The first report slower than {@value #SLOW_MILLIS} ms is logged, once,
 * with its time and what it told.
 */
public final class ReportLane {

    /** How long a report may take before it is logged as slow. */
    public static final long SLOW_MILLIS = 1_000;

    /** How long the lane's thread waits for another report before it ends. */
    static final long IDLE_SECONDS = 10;

    private final Logger log;
    private final String consumer;
    private final String observers;
    private final ThreadPoolExecutor thread;
    private final AtomicBoolean warned = new AtomicBoolean();
    private final ConcurrentLinkedQueue<Runnable> queued = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean draining = new AtomicBoolean();
    private final LongSupplier nanoTime;

    /**
     * Creates the lane of one consumer.
     *
     * @param log the consumer's logger, so that one category holds everything a consumer reports
     * @param consumer the consumer's description for logs, such as {@code worker 'emails'}
     * @param threadName the name of the lane's thread
     * @param observers what the reports tell, for the slow report's log line
     */
    public ReportLane(Logger log, String consumer, String threadName, String observers) {
        this(log, consumer, threadName, observers, System::nanoTime);
    }

    /** Creates the lane with a clock of its own, for tests that time reports without waiting. */
    ReportLane(Logger log, String consumer, String threadName, String observers, LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
        this.log = log;
        this.consumer = consumer;
        this.observers = observers;
        this.thread = new ThreadPoolExecutor(1, 1, IDLE_SECONDS, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                runnable -> {
                    Thread created = new Thread(runnable, threadName);
                    created.setDaemon(true);
                    return created;
                });
        this.thread.allowCoreThreadTimeOut(true);
    }

    /**
     * Queues a report behind the ones before it; what it throws is logged and ignored. Reports queued while the lane's
     * thread is busy are run by that thread in one go, so a burst of them costs one hand-over, not one each.
     *
     * @param what what it tells, for a log line only, such as {@code the outcome of job 42}
     * @param report the report
     */
    public void report(Supplier<String> what, Runnable report) {
        queued.add(() -> run(what, report));
        if (draining.compareAndSet(false, true)) {
            thread.submit(this::drain);
        }
    }

    /**
     * Waits until every report queued so far has run, at most {@code timeout}.
     *
     * @param timeout how long to wait
     * @return false when the timeout passed first: a report is still running
     */
    public boolean awaitReported(Duration timeout) {
        CountDownLatch reached = new CountDownLatch(1);
        report(() -> "the end of a wait", reached::countDown);
        try {
            return reached.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Runs what was queued, until nothing is; a report queued meanwhile is run by this same pass or the next. */
    private void drain() {
        do {
            Runnable next;
            while ((next = queued.poll()) != null) {
                next.run();
            }
            draining.set(false);
        } while (!queued.isEmpty() && draining.compareAndSet(false, true));
    }

    private void run(Supplier<String> what, Runnable report) {
        long started = nanoTime.getAsLong();
        try {
            report.run();
        } catch (RuntimeException failure) {
            log.warn("Telling {} of {} of {} failed", observers, what.get(), consumer, failure);
        }
        long millis = TimeUnit.NANOSECONDS.toMillis(nanoTime.getAsLong() - started);
        if (millis >= SLOW_MILLIS && warned.compareAndSet(false, true)) {
            log.warn("Telling {} of {} of {} took {} ms; the reports of {} run one at a time on thread {}, so the "
                    + "ones after it waited. Hand slow work, such as a pager call, to an executor of its own; this "
                    + "is logged once.", observers, what.get(), consumer, millis, consumer, Thread.currentThread().getName());
        }
    }
}
