package io.localqueue.test;

import io.localqueue.EnqueueOptions;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.QueueStats;
import io.localqueue.ReadyJob;
import io.localqueue.SimpleQueue;
import io.localqueue.spring.LocalQueueRegistry;
import io.localqueue.spring.listener.QueueListenerContainer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * What a test does with the application's queues: drain one through its listeners and see what they did, check what
 * waits in one, and move the queues' clock. Inject it into a test annotated with {@link AutoConfigureLocalQueue}.
 *
 * <p>Jobs delayed into the future (a retry's backoff, a delayed {@code nack}) are not due, so a drain does not wait
 * for them: it returns once nothing is due or running, and the test moves the {@link #clock()} past the delay and
 * drains again to see the next delivery.
 *
 * @since 0.1.0
 */
public final class LocalQueueTestSupport {

    /** How long a drain waits between looks at a queue when no delivery finished meanwhile. */
    private static final long LOOK_AGAIN_NANOS = Duration.ofMillis(20).toNanos();

    /** How many ready jobs an assertion reads at most, and how many its message lists. */
    /** How long before a job's write its put call may come, so that a delay counted from the call is recognised. */
    private static final long PUT_LATENCY_SECONDS = 1;

    private static final int READ_LIMIT = 1_000;
    private static final int LISTED = 20;

    private final LocalQueueRegistry queues;
    private final QueueListeners listeners;
    private final HandledJobs handled;

    LocalQueueTestSupport(LocalQueueRegistry queues, QueueListeners listeners, HandledJobs handled) {
        this.queues = queues;
        this.listeners = listeners;
        this.handled = handled;
    }

    /**
     * Lets the listeners of {@code queue} work until it has no due job, no job under a lease and no listener
     * invocation running, and returns every delivery they finished since the test began or the last drain of this
     * queue, oldest first. Listeners running on their own threads do the work while this waits; when none of the
     * queue's listeners runs (inline mode, {@code autoStartup = "false"}), this runs them on the calling thread.
     * Jobs delayed into the future are left alone: move the {@link #clock()} and drain again.
     *
     * @param queue the queue name
     * @param timeout how long to wait at most; a listener run on the calling thread is not interrupted by it
     * @return the deliveries finished meanwhile, retries included
     * @throws AssertionError when the queue has no listener and holds due jobs, or is still busy once the timeout
     *                        passes; the message says what is pending
     * @since 0.1.0
     */
    public List<HandledJob> drain(String queue, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<QueueListenerContainer> containers = listeners.of(queue);
        while (true) {
            if (containers.stream().noneMatch(QueueListenerContainer::isRunning)) {
                listeners.runDue(queue);
            }
            Pending pending = pending(queue, containers);
            if (pending.idle()) {
                return handled.take(queue);
            }
            if (containers.isEmpty()) {
                throw new AssertionError("queue '" + queue + "' has no @QueueListener in this context, so nothing "
                        + "drains it: " + pending.describe());
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError("queue '" + queue + "' did not drain within " + timeout + ": "
                        + pending.describe() + "; handled meanwhile: " + describe(handled.peek(queue)));
            }
            try {
                handled.awaitNext(Math.min(left, LOOK_AGAIN_NANOS));
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while draining queue '" + queue + "'", interrupted);
            }
        }
    }

    /**
     * Asserts that a job waiting in {@code queue}, due or delayed, has a payload that matches, and returns that
     * payload. Jobs under a lease are not waiting, so while listeners run a job they already took is not found:
     * use it where nothing consumes the queue, or for jobs delayed into the future.
     *
     * @param queue the queue name
     * @param type the payload class the jobs are read as
     * @param matches the condition
     * @param <T> the payload type
     * @return the first matching payload, in claim order
     * @throws AssertionError when none matches; the message lists what waits in the queue
     * @since 0.1.0
     */
    public <T> T assertEnqueued(String queue, Class<T> type, Predicate<? super T> matches) {
        return findEnqueued(queue, type, matches, null).data();
    }

    /**
     * Asserts that a job waiting in {@code queue} has a payload that matches and was put with {@code options}: the
     * same priority and concurrency key, and the due time they set (their {@code runAt}, or their {@code delay} after
     * the job's put); options without a due time ask for a job due at its put. Returns that job, to check more of it.
     *
     * @param queue the queue name
     * @param type the payload class the jobs are read as
     * @param matches the condition on the payload
     * @param options the options the job must have been put with
     * @param <T> the payload type
     * @return the first matching job, in claim order
     * @throws AssertionError when none matches; the message lists what waits in the queue, with each job's options
     * @since 0.1.0
     */
    public <T> ReadyJob<T> assertEnqueued(String queue, Class<T> type, Predicate<? super T> matches,
                                          EnqueueOptions options) {
        if (options == null) {
            throw new IllegalArgumentException("options must not be null");
        }
        return findEnqueued(queue, type, matches, options);
    }

    private <T> ReadyJob<T> findEnqueued(String queue, Class<T> type, Predicate<? super T> matches,
                                         @Nullable EnqueueOptions options) {
        List<ReadyJob<T>> ready = queues.queue(queue, type).listReady(READ_LIMIT, 0);
        for (ReadyJob<T> job : ready) {
            T data = job.data();
            if (job.decoded() && data != null && matches.test(data) && (options == null || putWith(job, options))) {
                return job;
            }
        }
        throw new AssertionError(ready.isEmpty()
                ? "queue '" + queue + "' has no job waiting; " + counts(queue)
                : "no job waiting in queue '" + queue + "' matches" + (options == null ? "" : " " + options)
                        + "; it holds " + ready.size() + (ready.size() == READ_LIMIT ? " or more" : "") + ": "
                        + describeReady(ready));
    }

    /**
     * Tells whether a waiting job carries what {@code options} set: priority, key and due time. A delay counts from the
     * put call, which may come up to {@value #PUT_LATENCY_SECONDS} s before the write stamps the job's creation.
     */
    private static boolean putWith(ReadyJob<?> job, EnqueueOptions options) {
        if (job.priority() != options.priority() || !Objects.equals(job.concurrencyKey(), options.concurrencyKey())) {
            return false;
        }
        Instant runAt = options.runAt();
        if (runAt != null) {
            return job.availableAt().equals(runAt)
                    || runAt.isBefore(job.createdAt()) && putShortlyBefore(job.availableAt(), job.createdAt());
        }
        Duration delay = options.delay() != null ? options.delay() : Duration.ZERO;
        return putShortlyBefore(job.availableAt(), job.createdAt().plus(delay));
    }

    /** Tells whether {@code due} lies at most {@value #PUT_LATENCY_SECONDS} s before {@code latest}, or at it. */
    private static boolean putShortlyBefore(Instant due, Instant latest) {
        return !due.isAfter(latest) && due.isAfter(latest.minusSeconds(PUT_LATENCY_SECONDS));
    }

    /**
     * Returns the payloads of the jobs waiting in {@code queue}, due or delayed, in claim order, claiming none.
     *
     * @param queue the queue name
     * @param type the payload class the jobs are read as
     * @param <T> the payload type
     * @return the payloads; a job whose payload does not decode as {@code type} is left out
     * @since 0.1.0
     */
    public <T> List<T> enqueued(String queue, Class<T> type) {
        List<T> payloads = new ArrayList<>();
        for (ReadyJob<T> job : queues.queue(queue, type).listReady(READ_LIMIT, 0)) {
            T data = job.data();
            if (job.decoded() && data != null) {
                payloads.add(data);
            }
        }
        return payloads;
    }

    /**
     * Returns the clock the queues run on, to move it forward past a delay.
     *
     * @return the kit's clock
     * @throws IllegalStateException when the queues run on another clock: the application has a {@code Clock} bean of
     *                               its own, or several, so the kit contributed none; make that bean a
     *                               {@link TestClock} in the test
     * @since 0.1.0
     */
    public TestClock clock() {
        Clock clock = queues.clock();
        if (clock instanceof TestClock test) {
            return test;
        }
        throw new IllegalStateException("the queues run on " + clock + ", not on a TestClock: the application "
                + "defines a java.time.Clock bean of its own (or several), so @AutoConfigureLocalQueue added none; "
                + "replace it with a TestClock in the test's configuration to move the queues' time");
    }

    /**
     * Returns the temporary directory holding this context's queue file.
     *
     * @return the directory, deleted when the context closes
     * @throws IllegalStateException when the application keeps its queues on a server
     *                               ({@code localqueue.store=postgresql}), which uses no directory
     * @since 0.1.0
     */
    public Path directory() {
        LocalQueueDatabase database = queues.database();
        if (!database.isFile()) {
            throw new IllegalStateException("the queues are kept in " + database.engine() + " (" + database.location()
                    + ") because of localqueue.store=postgresql, so there is no queue directory; the kit leaves that "
                    + "store as configured, and its jobs stay in the schema between runs: give the tests a schema "
                    + "of their own with localqueue.postgresql.schema");
        }
        return database.path();
    }

    /** Forgets the deliveries recorded so far; called before each test method. */
    void forgetHandledJobs() {
        handled.clear();
    }

    private Pending pending(String queue, List<QueueListenerContainer> containers) {
        // Due jobs first, then leases, then running invocations: a job claimed after the first read is under a
        // lease at the second, and one settled before the second has been reported once no invocation runs.
        SimpleQueue<Object> jobs = queues.queue(queue);
        Instant now = queues.clock().instant();
        List<ReadyJob<Object>> due = new ArrayList<>();
        @Nullable ReadyJob<Object> nextDelayed = null;
        for (ReadyJob<Object> job : jobs.listReady(LISTED, 0)) {
            if (job.dueAt(now)) {
                due.add(job);
            } else {
                nextDelayed = job;
                break;
            }
        }
        QueueStats stats = jobs.stats();
        List<String> busy = containers.stream().filter(container -> container.activeJobs() > 0)
                .map(container -> "listener '" + container.endpoint().id() + "' runs " + container.activeJobs()
                        + " job(s)")
                .toList();
        return new Pending(stats, due, nextDelayed, busy, now);
    }

    private String counts(String queue) {
        QueueStats stats = queues.queue(queue).stats();
        return stats.processing() + " under a lease, " + stats.acked() + " acknowledged, " + stats.failed()
                + " dead letter(s)";
    }

    private static <T> String describeReady(List<ReadyJob<T>> ready) {
        return ready.stream().limit(LISTED).map(job -> "#" + job.id() + " "
                        + (job.decoded() ? String.valueOf(job.data()) : "undecodable (" + job.decodeError() + ")")
                        + " due " + job.availableAt()
                        + (job.priority() != 0 ? " priority " + job.priority() : "")
                        + (job.concurrencyKey() != null ? " key " + job.concurrencyKey() : ""))
                .collect(Collectors.joining(", ", "[", ready.size() > LISTED ? ", …]" : "]"));
    }

    private static String describe(List<HandledJob> jobs) {
        return jobs.isEmpty() ? "nothing" : jobs.stream()
                .map(job -> "#" + job.jobId() + " " + job.outcome().tag())
                .collect(Collectors.joining(", ", "[", "]"));
    }

    /** What keeps a queue from being drained, read in the order that makes "idle" sound. */
    private record Pending(QueueStats stats, List<ReadyJob<Object>> due, @Nullable ReadyJob<Object> nextDelayed,
                           List<String> busy, Instant now) {

        Pending {
            due = List.copyOf(due);
        }

        boolean idle() {
            return due.isEmpty() && stats.processing() == 0 && busy.isEmpty();
        }

        String describe() {
            List<String> parts = new ArrayList<>();
            if (!due.isEmpty()) {
                parts.add(due.size() + (due.size() == LISTED ? " or more" : "") + " due job(s) waiting "
                        + describeReady(due));
            }
            if (stats.processing() > 0) {
                parts.add(stats.processing() + " job(s) under a lease");
            }
            parts.addAll(busy);
            ReadyJob<Object> next = nextDelayed;
            if (next != null) {
                parts.add("jobs delayed into the future, the next #" + next.id() + " due at "
                        + next.availableAt() + ", " + Duration.between(now, next.availableAt())
                        + " after the queue's clock (" + now + ")");
            }
            return String.join("; ", parts);
        }
    }
}
