package io.localqueue.internal.store.sqlite;

import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * File-system notifications for writes to the database file and its WAL, where the platform delivers them as they
 * happen (inotify on Linux); elsewhere {@link #eventDriven()} is false and callers must poll.
 *
 * <p>An event only hints that a commit may have happened: it can arrive before the commit is visible, so callers
 * confirm with {@code PRAGMA data_version} and keep checking for a short while after each event.
 */
final class FileEvents implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(FileEvents.class);

    private final Path directory;
    private final String filePrefix;
    private final @Nullable WatchService service;
    private final boolean eventDriven;
    private @Nullable WatchKey key;

    private FileEvents(Path directory, String filePrefix, @Nullable WatchService service, boolean eventDriven) {
        this.directory = directory;
        this.filePrefix = filePrefix;
        this.service = service;
        this.eventDriven = eventDriven;
    }

    /** Opens notifications for files in {@code directory} whose names start with {@code filePrefix}. */
    static FileEvents open(Path directory, String filePrefix) {
        try {
            WatchService service = directory.getFileSystem().newWatchService();
            // The JDK's fallback service polls every few seconds, which is no better than not watching.
            boolean native_ = !service.getClass().getName().contains("Polling");
            if (!native_) {
                service.close();
                return new FileEvents(directory, filePrefix, null, false);
            }
            return new FileEvents(directory, filePrefix, service, true);
        } catch (IOException | UnsupportedOperationException failure) {
            log.debug("No file-system notifications for {}; polling instead", directory, failure);
            return new FileEvents(directory, filePrefix, null, false);
        }
    }

    /** Tells whether events arrive as writes happen, so that polling can be slow while nothing happens. */
    boolean eventDriven() {
        return eventDriven && key != null;
    }

    /** Starts delivering events; without it {@link #await} only sleeps. */
    void start() {
        if (service == null || key != null) {
            return;
        }
        try {
            key = directory.register(service, StandardWatchEventKinds.ENTRY_MODIFY,
                    StandardWatchEventKinds.ENTRY_CREATE);
        } catch (IOException | ClosedWatchServiceException | UnsupportedOperationException failure) {
            log.debug("Cannot watch {}; polling instead", directory, failure);
            key = null;
        }
    }

    /** Stops delivering events, so that writes cost nothing while nobody waits. */
    void stop() {
        WatchKey current = key;
        key = null;
        if (current != null) {
            current.cancel();
        }
        drain();
    }

    /**
     * Waits up to {@code timeoutNanos} for a write to one of the database files.
     *
     * @return true when such a write was reported
     */
    boolean await(long timeoutNanos) throws InterruptedException {
        if (service == null || key == null) {
            TimeUnit.NANOSECONDS.sleep(timeoutNanos);
            return false;
        }
        WatchKey signalled;
        try {
            signalled = service.poll(timeoutNanos, TimeUnit.NANOSECONDS);
        } catch (ClosedWatchServiceException closed) {
            return false;
        }
        if (signalled == null) {
            return false;
        }
        boolean relevant = false;
        for (WatchEvent<?> event : signalled.pollEvents()) {
            Object context = event.context();
            if (event.kind() == StandardWatchEventKinds.OVERFLOW
                    || (context instanceof Path name && name.toString().startsWith(filePrefix))) {
                relevant = true;
            }
        }
        if (!signalled.reset()) {
            key = null;
        }
        return relevant;
    }

    private void drain() {
        if (service == null) {
            return;
        }
        WatchKey pending;
        while ((pending = service.poll()) != null) {
            pending.pollEvents();
            pending.reset();
        }
    }

    @Override
    public void close() {
        if (service != null) {
            try {
                service.close();
            } catch (IOException failure) {
                log.debug("Closing the watch service of {} failed", directory, failure);
            }
        }
    }
}
