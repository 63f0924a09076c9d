package io.localqueue.internal;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opens a {@link Database} on a fresh directory for each test and closes it afterwards.
 */
abstract class DatabaseTestBase {

    @TempDir
    Path dir;

    Database database;

    @BeforeEach
    void openDatabase() {
        database = Database.acquire(dir);
    }

    @AfterEach
    void closeDatabase() {
        database.close();
    }
}
