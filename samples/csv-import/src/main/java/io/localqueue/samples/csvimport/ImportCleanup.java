package io.localqueue.samples.csvimport;

import io.localqueue.LocalQueueDatabase;
import io.localqueue.bus.EventBus;
import io.localqueue.bus.ExecutionResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.springframework.stereotype.Component;

/**
 * Gives the space of a completed import back: deletes its execution, which kept its deliveries from being purged,
 * purges the subscription's acknowledged deliveries (its dead letters stay, to be read and replayed) and vacuums the
 * queue file, which then shrinks to what is left.
 *
 * @since 0.1.0
 */
@Component
public class ImportCleanup {

    private final EventBus bus;
    private final LocalQueueDatabase database;

    ImportCleanup(EventBus bus, LocalQueueDatabase database) {
        this.bus = bus;
        this.database = database;
    }

    /**
     * Cleans up after a completed import.
     *
     * @param result the import's completed execution
     * @return what it deleted, and the file's size before and after
     * @throws IllegalStateException when the execution is not complete
     * @since 0.1.0
     */
    public Cleaned clean(ExecutionResult result) {
        long before = size();
        bus.deleteExecution(result.executionId());
        int purged = bus.subscription(UserCreationRequested.NAME).purge(Duration.ZERO, false);
        database.vacuum();
        return new Cleaned(purged, before, size());
    }

    /** The size of the queue file with its write-ahead log. */
    private long size() {
        Path file = database.file();
        try {
            Path wal = file.resolveSibling(file.getFileName() + "-wal");
            return Files.size(file) + (Files.exists(wal) ? Files.size(wal) : 0);
        } catch (IOException failure) {
            throw new UncheckedIOException(failure);
        }
    }

    /**
     * What a cleanup did.
     *
     * @param purged the acknowledged deliveries it deleted
     * @param bytesBefore the size of the queue file (and its write-ahead log) before
     * @param bytesAfter their size after
     * @since 0.1.0
     */
    public record Cleaned(int purged, long bytesBefore, long bytesAfter) {
    }
}
