package io.localqueue;

import io.localqueue.internal.Settlement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records a worker's outcomes off its handler threads: handlers hand over their job's settlement and move on,
 * and one thread commits whatever has gathered in one transaction, each settlement under its own fence. An outcome
 * is reported (observer, logs, active count) only once its transaction committed, so a crash before that merely
 * redelivers the job. Settlements queue up to a bound, past which handlers wait.
 */
final class Settler<T> {

    private static final Logger log = LoggerFactory.getLogger(Settler.class);

    /** The most settlements waiting before handlers have to wait. */
    static final int MAX_WAITING = 4096;

    /** The most settlements committed together. */
    static final int MAX_BATCH = 1024;

    /** A settlement on its way, with what is reported once it committed. */
    record Pending<T>(Job<T> job, Settlement settlement, Duration handlerTime, @Nullable Throwable error) {
    }

    private final SimpleQueue<T> queue;
    private final BiConsumer<Pending<T>, Settlement.Result> report;
    private final LinkedBlockingQueue<Pending<T>> waiting = new LinkedBlockingQueue<>(MAX_WAITING);
    private final Thread thread;
    private volatile boolean running;

    Settler(SimpleQueue<T> queue, String name, BiConsumer<Pending<T>, Settlement.Result> report) {
        this.queue = queue;
        this.report = report;
        this.thread = new Thread(this::run, "localqueue-settle-" + name);
        this.thread.setDaemon(true);
    }

    void start() {
        running = true;
        thread.start();
    }

    /** Hands over a settlement; settles it on the calling thread when the settler thread is not running. */
    void submit(Pending<T> pending) {
        if (running) {
            try {
                while (running) {
                    if (waiting.offer(pending, 100, TimeUnit.MILLISECONDS)) {
                        return;
                    }
                }
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        settle(List.of(pending));
    }

    /** Commits everything handed over so far, then stops the settler thread. */
    void drainAndStop() {
        running = false;
        if (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        List<Pending<T>> rest = new ArrayList<>();
        waiting.drainTo(rest);
        if (!rest.isEmpty()) {
            settle(rest);
        }
    }

    /** Commits a batch and reports each settlement's result. */
    void settle(List<Pending<T>> batch) {
        List<Settlement> settlements = new ArrayList<>(batch.size());
        for (Pending<T> pending : batch) {
            settlements.add(pending.settlement());
        }
        List<Settlement.Result> results;
        try {
            results = queue.settle(settlements);
        } catch (LocalQueueException failure) {
            log.error("Recording the results of {} job(s) of queue '{}' failed; they will be delivered again after "
                    + "their leases", batch.size(), queue.name(), failure);
            results = new ArrayList<>();
            for (int i = 0; i < batch.size(); i++) {
                results.add(Settlement.Result.LEASE_LOST);
            }
        }
        for (int i = 0; i < batch.size(); i++) {
            report.accept(batch.get(i), results.get(i));
        }
    }

    private void run() {
        List<Pending<T>> batch = new ArrayList<>();
        while (running || !waiting.isEmpty()) {
            try {
                Pending<T> first = waiting.poll(50, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                waiting.drainTo(batch, MAX_BATCH - 1);
                settle(batch);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException unexpected) {
                log.error("Settling jobs of queue '{}' failed", queue.name(), unexpected);
            } finally {
                batch.clear();
            }
        }
    }
}
