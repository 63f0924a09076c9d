package io.localqueue.internal.store.sqlite;

import io.localqueue.internal.store.FileLocation;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** Base of the tests that drive the SQLite store directly, on a real file in a temporary directory. */
abstract class StoreTestBase {

    @TempDir
    Path dir;

    SqliteQueueStore store;

    @BeforeEach
    void openStore() {
        store = SqliteQueueStore.open(FileLocation.prepare(dir).directory());
    }

    @AfterEach
    void closeStore() {
        store.close();
    }
}
