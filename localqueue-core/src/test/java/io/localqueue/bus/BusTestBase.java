package io.localqueue.bus;

import io.localqueue.LocalQueueDatabase;
import io.localqueue.TestDatabases;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;

/**
 * Base of bus tests: the database of a temporary directory on the store under test ({@link TestDatabases}), and the
 * buses a test opens on it, closed after it.
 */
@Tag(TestDatabases.CONTRACT)
abstract class BusTestBase {

    @TempDir
    Path directory;

    private final List<EventBus> buses = new ArrayList<>();

    private LocalQueueDatabase database;

    @AfterEach
    void closeBuses() {
        buses.forEach(EventBus::close);
        if (database != null) {
            database.close();
        }
    }

    /** Returns the test's database, opened at the first call and closed after the test. */
    LocalQueueDatabase database() {
        if (database == null) {
            database = TestDatabases.open(directory);
        }
        return database;
    }

    /** Opens a raw connection to the test's database, whose unqualified table names reach its tables. */
    Connection connect() throws SQLException {
        return TestDatabases.connect(directory);
    }

    /** Builds a bus that is closed after the test. */
    EventBus open(EventBus.Builder builder) {
        EventBus bus = builder.build();
        buses.add(bus);
        return bus;
    }
}
