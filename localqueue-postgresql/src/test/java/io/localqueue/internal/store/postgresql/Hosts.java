package io.localqueue.internal.store.postgresql;

import io.localqueue.multiprocess.ChildProcesses;
import io.localqueue.testsupport.ChildProcess;
import java.util.List;

/**
 * The child JVMs of one test, each running {@link HostChild} as a host of the embedded server, started by core's
 * {@link ChildProcesses}; {@link #close()} (called from {@code @AfterEach}) destroys whatever still runs.
 */
final class Hosts implements AutoCloseable {

    private final ChildProcesses children = new ChildProcesses();

    /** Starts one child in {@code mode} with the given arguments, after the mode's. */
    ChildProcess start(String label, String mode, Object... arguments) {
        return children.start(label, HostChild.class, mode, arguments);
    }

    /** Starts {@code count} children in one mode and waits until each has printed READY. */
    List<ChildProcess> startReady(int count, String mode, Object... arguments) {
        return children.startReady(count, HostChild.class, HostChild.READY, mode, arguments);
    }

    /** Writes the same command to every given child. */
    static void sendAll(List<ChildProcess> processes, String command) {
        ChildProcesses.sendAll(processes, command);
    }

    @Override
    public void close() {
        children.close();
    }
}
