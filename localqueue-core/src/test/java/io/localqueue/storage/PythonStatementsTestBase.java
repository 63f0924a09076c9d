package io.localqueue.storage;

import io.localqueue.LocalQueueDatabase;
import io.localqueue.QueueTestBase;
import io.localqueue.SimpleQueue;
import io.localqueue.TestDatabases;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import org.junit.jupiter.api.Tag;

/**
 * Base of tests that work one queue of a file alternately from this library and through the Python library's own
 * statements, on the test's clock.
 */
@Tag(TestDatabases.FILE_ONLY)
abstract class PythonStatementsTestBase extends QueueTestBase {

    private final String queue;

    PythonStatementsTestBase(String queue) {
        this.queue = queue;
    }

    /** Returns the file both sides work. */
    Path file() {
        return dir.resolve(LocalQueueDatabase.FILE_NAME);
    }

    /** Opens the queue from this library; the caller closes it. */
    SimpleQueue<Object> javaQueue() {
        return SimpleQueue.builder(dir).name(queue).clock(clock).build();
    }

    /** Opens the file as the Python library does; the caller closes the connection. */
    Connection pythonOpens() throws SQLException {
        return PythonStatements.open(file());
    }

    /** Returns the test clock's time, which both sides stamp rows with. */
    long now() {
        return clock.millis();
    }
}
