package io.localqueue.internal.store.sqlite;

import java.io.IOException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.FileLockInterruptionException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A line in front of SQLite's write lock for the processes of this library that share a file: a write takes an
 * operating-system lock on a small side file before {@code BEGIN IMMEDIATE} and drops it after {@code COMMIT}.
 * SQLite itself never waits for its lock (a busy writer backs off and tries again, leaving the lock idle in
 * between); the operating system hands this one to the next waiting process the moment it is released. Programs
 * that do not take it, such as the Python library, are still kept out by SQLite's own lock. The gate only orders
 * writers: when its file cannot be used, or a waiting thread is interrupted, the write goes ahead without it; a
 * wait is bounded, so a process that hangs while holding the gate makes writers time out as SQLite's lock would.
 * Callers hold the database's in-process write lock, so one thread at a time uses the gate. The thread that ends
 * waits which ran out of time starts with the first such wait and stops when the gate is closed.
 */
final class WriteGate implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(WriteGate.class);

    private static final int ARMED = 0;
    private static final int RINGING = 1;
    private static final int RUNG = 2;
    private static final int DISARMED = 3;

    /** The side file, next to the database file; it holds no data. */
    static final String SUFFIX = "-writers";

    private final Path file;
    private @Nullable FileChannel channel;
    private @Nullable FileLock held;
    private @Nullable ScheduledExecutorService alarms;
    private boolean warned;

    WriteGate(Path databaseFile) {
        this.file = databaseFile.resolveSibling(databaseFile.getFileName() + SUFFIX);
    }

    /**
     * Takes the gate.
     *
     * @param waitNanos how long to wait while another process holds it; zero tries once
     * @return false when another process held the gate for the whole wait
     */
    boolean enter(long waitNanos) {
        try {
            FileChannel open = channel();
            held = open.tryLock();
            if (held == null && waitNanos > 0) {
                held = waitFor(open, waitNanos);
            }
            return held != null;
        } catch (ClosedChannelException interruptedOrClosed) {
            channel = null;
            return true;
        } catch (IOException unusable) {
            if (!warned) {
                warned = true;
                log.warn("Writers to {} go without their line at {}: {}", file.getParent(), file, unusable.toString());
            }
            return true;
        }
    }

    /**
     * Blocks until the gate is free, for at most {@code waitNanos}: an alarm interrupts the wait, which closes the
     * channel, and the interrupt the alarm caused is cleared again (an interrupt from elsewhere at that very moment
     * is cleared with it).
     *
     * @return the lock, or null when the wait ran out
     */
    private @Nullable FileLock waitFor(FileChannel open, long waitNanos) throws IOException {
        Thread waiter = Thread.currentThread();
        AtomicInteger alarmState = new AtomicInteger(ARMED);
        ScheduledFuture<?> alarm = alarms().schedule(() -> {
            if (alarmState.compareAndSet(ARMED, RINGING)) {
                waiter.interrupt();
                alarmState.set(RUNG);
            }
        }, waitNanos, TimeUnit.NANOSECONDS);
        try {
            return open.lock();
        } catch (ClosedByInterruptException | FileLockInterruptionException interrupted) {
            closeChannel();
            if (alarmState.get() == ARMED) {
                throw new ClosedByInterruptException();
            }
            return null;
        } finally {
            if (alarmState.compareAndSet(ARMED, DISARMED)) {
                alarm.cancel(false);
            } else {
                while (alarmState.get() != RUNG) {
                    Thread.onSpinWait();
                }
                Thread.interrupted();
            }
        }
    }

    /** Lets the next writer in; does nothing when the gate was not taken. */
    void exit() {
        FileLock lock = held;
        held = null;
        if (lock != null) {
            try {
                lock.release();
            } catch (IOException | RuntimeException failure) {
                log.debug("Releasing the writers' line at {} failed; closing it releases it", file, failure);
                closeChannel();
            }
        }
    }

    @Override
    public void close() {
        exit();
        closeChannel();
        ScheduledExecutorService running = alarms;
        alarms = null;
        if (running != null) {
            running.shutdownNow();
        }
    }

    /** Ends waits in line that ran out of time. */
    private ScheduledExecutorService alarms() {
        ScheduledExecutorService running = alarms;
        if (running == null) {
            running = Executors.newSingleThreadScheduledExecutor(task -> {
                Thread thread = new Thread(task, "localqueue-writers-line-alarm-" + file.getParent().getFileName());
                thread.setDaemon(true);
                return thread;
            });
            alarms = running;
        }
        return running;
    }

    private FileChannel channel() throws IOException {
        FileChannel open = channel;
        if (open == null || !open.isOpen()) {
            open = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            channel = open;
        }
        return open;
    }

    private void closeChannel() {
        FileChannel open = channel;
        channel = null;
        LockFiles.close(open, file);
    }
}
