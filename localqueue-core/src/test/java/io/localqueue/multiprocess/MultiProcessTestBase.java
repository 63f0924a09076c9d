package io.localqueue.multiprocess;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/** Base of tests that share a temporary directory with child JVMs, which are stopped after each test. */
abstract class MultiProcessTestBase {

    @TempDir
    Path dir;

    final ChildProcesses children = new ChildProcesses();

    @AfterEach
    void stopChildren() {
        children.close();
    }
}
