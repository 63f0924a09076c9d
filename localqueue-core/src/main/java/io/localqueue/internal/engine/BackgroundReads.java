package io.localqueue.internal.engine;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one daemon thread of a database that runs reads no caller waits for, one after another: started by the first
 * read handed over, stopped when the database closes. A read still waiting then is dropped; the one running is let
 * finish, for at most {@value #STOP_SECONDS} seconds.
 */
final class BackgroundReads implements AutoCloseable {

    /** The start of the thread's name; the database's location follows it. */
    static final String THREAD_NAME = "localqueue-snapshots";

    private static final Logger log = LoggerFactory.getLogger(BackgroundReads.class);
    private static final long STOP_SECONDS = 30;
    private static final Runnable STOP = () -> { };

    private final String location;
    private final LinkedBlockingQueue<Runnable> reads = new LinkedBlockingQueue<>();
    private final Object lifecycle = new Object();
    private @Nullable Thread thread;
    private boolean closed;

    BackgroundReads(String location) {
        this.location = location;
    }

    /**
     * Hands a read to the thread, starting it when none runs yet.
     *
     * @param read the read; it handles its own failures
     * @return false when the database is closed and the read will never run
     */
    boolean submit(Runnable read) {
        synchronized (lifecycle) {
            if (closed) {
                return false;
            }
            if (thread == null) {
                Thread started = new Thread(this::run, THREAD_NAME + " " + location);
                started.setDaemon(true);
                thread = started;
                started.start();
            }
            reads.add(read);
            return true;
        }
    }

    private void run() {
        while (true) {
            Runnable read;
            try {
                read = reads.take();
            } catch (InterruptedException interrupted) {
                return;
            }
            if (read == STOP) {
                return;
            }
            try {
                read.run();
            } catch (RuntimeException unexpected) {
                log.warn("A background read of {} failed", location, unexpected);
            }
        }
    }

    /** Stops the thread and waits for the read it is running. */
    @Override
    public void close() {
        Thread running;
        synchronized (lifecycle) {
            closed = true;
            running = thread;
            thread = null;
        }
        if (running == null || running == Thread.currentThread()) {
            return;
        }
        reads.clear();
        reads.add(STOP);
        try {
            running.join(TimeUnit.SECONDS.toMillis(STOP_SECONDS));
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
