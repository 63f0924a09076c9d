package io.localqueue.benchmark;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * Another program writing to the queue's file: a plain JDBC connection, outside this library and its writers'
 * line, that takes SQLite's write lock with {@code BEGIN IMMEDIATE}, keeps it while it "works" and commits. Holds
 * run one at a time on a thread of their own, so that kills go on meanwhile.
 */
final class WriteLockHolder implements AutoCloseable {

    /** How long a hold waits for the library's writers before it gives up on taking the lock. */
    private static final int BUSY_TIMEOUT_MILLIS = 10_000;

    private final Path file;
    private final ExecutorService thread = Executors.newSingleThreadExecutor(runnable -> {
        Thread holder = new Thread(runnable, "write-lock-holder");
        holder.setDaemon(true);
        return holder;
    });
    private @Nullable Future<?> current;
    private int holds;
    private int refused;
    private long heldNanos;
    private long longestNanos;

    WriteLockHolder(Path file) {
        this.file = file;
    }

    /** Whether a hold is still under way. */
    synchronized boolean holding() {
        return current != null && !current.isDone();
    }

    /** Starts holding the lock for {@code duration}, unless a hold is under way. */
    synchronized void hold(Duration duration) {
        if (!holding()) {
            current = thread.submit(() -> holdNow(duration));
        }
    }

    synchronized int holds() {
        return holds;
    }

    /** Holds that could not take the lock within the busy timeout. */
    synchronized int refused() {
        return refused;
    }

    synchronized Duration held() {
        return Duration.ofNanos(heldNanos);
    }

    synchronized Duration longest() {
        return Duration.ofNanos(longestNanos);
    }

    /** Waits for the hold under way, then stops the holder's thread. */
    @Override
    public void close() throws InterruptedException {
        thread.shutdown();
        thread.awaitTermination(1, TimeUnit.MINUTES);
    }

    private void holdNow(Duration duration) {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
             Statement statement = connection.createStatement()) {
            statement.execute("PRAGMA busy_timeout = " + BUSY_TIMEOUT_MILLIS);
            statement.execute("BEGIN IMMEDIATE");
            long locked = System.nanoTime();
            Thread.sleep(duration.toMillis()); // the other program's work, done while it holds the lock
            statement.execute("COMMIT");
            record(System.nanoTime() - locked);
        } catch (SQLException busy) {
            synchronized (this) {
                refused++;
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private synchronized void record(long nanos) {
        holds++;
        heldNanos += nanos;
        longestNanos = Math.max(longestNanos, nanos);
    }
}
