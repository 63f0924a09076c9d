package io.localqueue;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;

/**
 * Base of tests that open queues with a {@link TestClock}, closed after each test, on the database of a temporary
 * directory: its SQLite file, or the store under test's ({@link TestDatabases}).
 */
@Tag(TestDatabases.CONTRACT)
public abstract class QueueTestBase {

    @TempDir
    protected Path dir;

    protected final TestClock clock;

    private final List<AutoCloseable> opened = new ArrayList<>();

    private LocalQueueDatabase database;

    protected QueueTestBase() {
        this(TestClock.START);
    }

    protected QueueTestBase(Instant start) {
        clock = new TestClock(start);
    }

    /** Returns the test's database on the store under test, opened at the first call and closed after the test. */
    protected LocalQueueDatabase database() {
        if (database == null || database.isClosed()) {
            database = closeAfterTest(TestDatabases.open(dir));
        }
        return database;
    }

    /** Builds the queue and closes it after the test. */
    protected <T> SimpleQueue<T> open(SimpleQueue.Builder<T> builder) {
        return closeAfterTest(builder.build());
    }

    /** Closes {@code closeable} after the test, newest first. */
    protected <C extends AutoCloseable> C closeAfterTest(C closeable) {
        opened.add(closeable);
        return closeable;
    }

    /** Closes, newest first, everything the test opened so far; runs after each test too. */
    @AfterEach
    protected void closeOpened() throws Exception {
        for (int i = opened.size() - 1; i >= 0; i--) {
            opened.get(i).close();
        }
        opened.clear();
        database = null;
    }
}
