package io.localqueue.internal.consumer;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * Interrupts a consumer's handlers that run past their timeout, on one thread of the consumer's own; a timer that
 * fires after its handler returned interrupts nothing.
 */
public final class HandlerTimeouts {

    private final @Nullable Duration timeout;
    private final @Nullable ScheduledExecutorService timers;

    /**
     * Creates the timeouts of one consumer.
     *
     * @param timeout how long a handler may run, or null for no limit (no thread is made)
     * @param threadName the name of the timers' thread
     */
    public HandlerTimeouts(@Nullable Duration timeout, String threadName) {
        this.timeout = timeout;
        this.timers = timeout == null ? null : Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, threadName);
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * Starts timing the calling thread's handler.
     *
     * @return the timer, to be ended once the handler returned
     */
    public Timer start() {
        Timer timer = new Timer(Thread.currentThread());
        if (timers != null && timeout != null) {
            timer.scheduled = timers.schedule(timer::interrupt, timeout.toNanos(), TimeUnit.NANOSECONDS);
        }
        return timer;
    }

    /**
     * Returns the timeout.
     *
     * @return the timeout, or null for none
     */
    public @Nullable Duration timeout() {
        return timeout;
    }

    /** Stops the timers' thread. */
    public void shutdown() {
        if (timers != null) {
            timers.shutdownNow();
        }
    }

    /** The timing of one run of a handler. */
    public static final class Timer {
        private final Thread handler;
        private @Nullable ScheduledFuture<?> scheduled;
        private boolean finished;
        private boolean fired;

        private Timer(Thread handler) {
            this.handler = handler;
        }

        private synchronized void interrupt() {
            if (!finished) {
                fired = true;
                handler.interrupt();
            }
        }

        /**
         * Ends the timing once the handler returned, and clears an interrupt the timer may have left.
         *
         * @return true when the timeout interrupted the handler
         */
        public boolean end() {
            ScheduledFuture<?> timer = scheduled;
            if (timer != null) {
                timer.cancel(false);
            }
            boolean timedOut;
            synchronized (this) {
                finished = true;
                timedOut = fired;
            }
            Thread.interrupted();
            return timedOut;
        }
    }
}
