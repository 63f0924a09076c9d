package io.localqueue;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;

/**
 * Runs a call on its own thread and waits for that thread to park, so a test knows the call is blocked inside the
 * queue before acting on it.
 */
final class Threads {

    /** The bound for anything asynchronous to happen. */
    static final Duration BOUND = Duration.ofSeconds(5);

    private Threads() {
    }

    /** A call running on its own thread and its eventual outcome. */
    record Call<R>(Thread thread, CompletableFuture<R> result) {

        /** Waits, within {@link #BOUND}, until the thread is parked (waiting for work, room or a lock). */
        Call<R> awaitParked() {
            await().atMost(BOUND).pollInterval(Duration.ofMillis(5)).until(() -> {
                Thread.State state = thread.getState();
                return state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING;
            });
            return this;
        }
    }

    static <R> Call<R> start(String name, Callable<R> body) {
        CompletableFuture<R> result = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try {
                result.complete(body.call());
            } catch (Throwable failure) {
                result.completeExceptionally(failure);
            }
        }, name);
        thread.setDaemon(true);
        thread.start();
        return new Call<>(thread, result);
    }
}
