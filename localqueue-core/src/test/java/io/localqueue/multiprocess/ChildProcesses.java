package io.localqueue.multiprocess;

import io.localqueue.testsupport.ChildProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The child JVMs of one test: starts them, broadcasts commands, and on {@link #close()} (called from
 * {@code @AfterEach}) destroys whatever still runs and deletes their scratch directory, so that nothing outlives the
 * test. Public, so that other modules' multi-process tests (the PostgreSQL store's hosts) start their children the
 * same way.
 */
public final class ChildProcesses implements AutoCloseable {

    /** The longest wait for any one line or exit; reaching it means a child is stuck. */
    static final Duration DEFAULT_WAIT = Duration.ofSeconds(60);

    private final List<ChildProcess> started = new ArrayList<>();
    private @Nullable Path scratch;

    /** Starts one child running {@link QueueChild} in {@code mode} with the given arguments. */
    ChildProcess start(String label, String mode, Object... arguments) {
        return start(label, QueueChild.class, mode, arguments);
    }

    /** Starts one child running another child main class in {@code mode}. */
    public ChildProcess start(String label, Class<?> mainClass, String mode, Object... arguments) {
        return start(label, List.of(), mainClass, mode, arguments);
    }

    /**
     * Starts one child running a child main class of this package in {@code mode}, with JVM flags added to the fast
     * start ones, such as a {@code -D} system property.
     */
    synchronized ChildProcess start(String label, List<String> jvmFlags, Class<?> mainClass, String mode,
                                    Object... arguments) {
        List<String> words = new ArrayList<>();
        words.add(mode);
        for (Object argument : arguments) {
            words.add(String.valueOf(argument));
        }
        List<String> flags = new ArrayList<>(ChildProcess.FAST_START_FLAGS);
        flags.addAll(jvmFlags);
        ChildProcess child = ChildProcess.start(label, flags, scratch(),
                System.getProperty("java.class.path"), mainClass.getName(), words, DEFAULT_WAIT);
        started.add(child);
        return child;
    }

    /**
     * Starts {@code count} children in the same mode, then waits until every one of them printed
     * {@value QueueChild#READY}, so that a following {@link #sendAll} releases them together.
     */
    List<ChildProcess> startReady(int count, String mode, Object... arguments) {
        return startReady(count, QueueChild.class, QueueChild.READY, mode, arguments);
    }

    /**
     * Starts {@code count} children of another main class in the same mode, then waits until every one of them
     * printed {@code ready}.
     */
    public List<ChildProcess> startReady(int count, Class<?> mainClass, String ready, String mode,
                                         Object... arguments) {
        List<ChildProcess> children = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            children.add(start(mode + "-" + i, mainClass, mode, arguments));
        }
        for (ChildProcess child : children) {
            child.expect(ready);
        }
        return children;
    }

    /** Writes the same command to every given child. */
    public static void sendAll(List<ChildProcess> children, String command) {
        for (ChildProcess child : children) {
            child.send(command);
        }
    }

    /** Destroys every child that still runs, then deletes their scratch directory. */
    @Override
    public synchronized void close() {
        for (ChildProcess child : started) {
            child.close();
        }
        started.clear();
        if (scratch != null) {
            Directories.deleteRecursively(scratch);
            scratch = null;
        }
    }

    private Path scratch() {
        if (scratch == null) {
            try {
                scratch = Files.createTempDirectory("localqueue-children-");
            } catch (IOException failure) {
                throw new UncheckedIOException(failure);
            }
        }
        return scratch;
    }
}
