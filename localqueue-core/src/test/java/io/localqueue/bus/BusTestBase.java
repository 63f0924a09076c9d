package io.localqueue.bus;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/** Base of bus tests: a temporary queue directory and the buses a test opens on it, closed after it. */
abstract class BusTestBase {

    @TempDir
    Path directory;

    private final List<EventBus> buses = new ArrayList<>();

    @AfterEach
    void closeBuses() {
        buses.forEach(EventBus::close);
    }

    /** Builds a bus that is closed after the test. */
    EventBus open(EventBus.Builder builder) {
        EventBus bus = builder.build();
        buses.add(bus);
        return bus;
    }
}
