package io.localqueue.spring.listener;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.springframework.format.annotation.DurationFormat;
import org.springframework.format.datetime.standard.DurationFormatterUtils;

/**
 * Spring's shutdown phase as localqueue's lifecycle beans (the listeners' registry and the event bus's lifecycle)
 * fit into it: each waits for its running work at most the phase less a margin, so that what it interrupts is handed
 * back before Spring stops the next phase and closes the application's beans, and each says once, at start, when a
 * configured wait had to be cut to fit.
 *
 * @since 0.1.0
 */
public final class ShutdownPhase {

    /** Spring Boot's property for the phase's timeout. */
    public static final String PROPERTY = "spring.lifecycle.timeout-per-shutdown-phase";

    private static final Duration MARGIN = Duration.ofSeconds(5);

    private final Duration timeout;
    private final AtomicBoolean warned = new AtomicBoolean();

    /**
     * Describes a phase Spring waits {@code timeout} for.
     *
     * @param timeout the phase's timeout, zero or more
     * @throws IllegalArgumentException when {@code timeout} is null or negative
     */
    public ShutdownPhase(Duration timeout) {
        if (timeout == null || timeout.isNegative()) {
            throw new IllegalArgumentException("timeout must be zero or more, got " + timeout);
        }
        this.timeout = timeout;
    }

    /**
     * Returns the longest wait that fits a phase of {@code phaseTimeout}: the phase less a margin of 5 seconds (a
     * fifth of a phase under 25 seconds), which leaves the phase time to interrupt what still runs and record what
     * finished.
     *
     * @param phaseTimeout Spring's timeout for the phase, zero or more
     * @return the longest wait that fits the phase
     */
    public static Duration maxWait(Duration phaseTimeout) {
        Duration fifth = phaseTimeout.dividedBy(5);
        return phaseTimeout.minus(fifth.compareTo(MARGIN) < 0 ? fifth : MARGIN);
    }

    /**
     * Returns the longest wait that fits this phase.
     *
     * @return {@link #maxWait(Duration)} of this phase's timeout
     */
    public Duration maxWait() {
        return maxWait(timeout);
    }

    /**
     * Returns a wait cut to fit this phase: {@code wanted} when it fits, else {@link #maxWait()}.
     *
     * @param wanted the wait asked for
     * @return the wait to use
     */
    public Duration fit(Duration wanted) {
        Duration fits = maxWait();
        return wanted.compareTo(fits) > 0 ? fits : wanted;
    }

    /**
     * Warns, the first time only, when {@code wanted} does not fit this phase: who would wait, on which setting,
     * what it will wait instead and how far to raise the phase to keep it; later calls on this phase stay quiet.
     *
     * @param log where to warn
     * @param who what waits, such as {@code "@QueueListener 'emails.send'"}
     * @param work what it waits for, such as {@code "jobs"}
     * @param setting the setting that asked for the wait
     * @param wanted the wait asked for
     * @return true when the wait does not fit, warned now or before
     */
    public boolean warnIfCut(Logger log, String who, String work, String setting, Duration wanted) {
        Duration fits = maxWait();
        if (wanted.compareTo(fits) <= 0) {
            return false;
        }
        if (warned.compareAndSet(false, true)) {
            Duration quarter = wanted.dividedBy(4);
            Duration needed = wanted.plus(quarter.compareTo(MARGIN) < 0 ? quarter : MARGIN);
            log.warn("{} would wait up to {} for running {} at shutdown ({}), but Spring waits {} for localqueue's "
                            + "shutdown phase ({}) and would then stop the application's other beans under {} still "
                            + "running. It will wait {}; raise {} to at least {} to keep {}.",
                    who, print(wanted), work, setting, print(timeout), PROPERTY, work, print(fits), PROPERTY,
                    print(needed), print(wanted));
        }
        return true;
    }

    /**
     * Runs a stop on a thread of its own and then {@code callback}, so that Spring's timeout for the phase holds
     * even when the stop takes longer; a stop that throws still runs the callback.
     *
     * @param threadName the thread's name
     * @param stop what stops
     * @param callback Spring's callback of {@code SmartLifecycle.stop(Runnable)}
     */
    public static void stopInBackground(String threadName, Runnable stop, Runnable callback) {
        inThread(threadName, stop).whenComplete((ignored, failure) -> callback.run());
    }

    /**
     * Runs a task on a daemon thread of its own: stops block for seconds, and the common pool may have a single
     * thread.
     *
     * @param threadName the thread's name
     * @param task the task
     * @return completed when the task returns, exceptionally when it throws
     */
    static CompletableFuture<Void> inThread(String threadName, Runnable task) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try {
                task.run();
                done.complete(null);
            } catch (RuntimeException | Error failure) {
                done.completeExceptionally(failure);
            }
        }, threadName);
        thread.setDaemon(true);
        thread.start();
        return done;
    }

    /**
     * Prints a duration for a log line: whole seconds as {@code 25s}, anything finer in milliseconds.
     *
     * @param duration the duration
     * @return such as {@code 25s} or {@code 2400ms}
     */
    public static String print(Duration duration) {
        boolean wholeSeconds = duration.toMillis() % 1000 == 0;
        return DurationFormatterUtils.print(duration, DurationFormat.Style.SIMPLE,
                wholeSeconds ? DurationFormat.Unit.SECONDS : DurationFormat.Unit.MILLIS);
    }
}
