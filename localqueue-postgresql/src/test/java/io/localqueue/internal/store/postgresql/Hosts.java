package io.localqueue.internal.store.postgresql;

import io.localqueue.testsupport.ChildProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * The child JVMs of one test, each running {@link HostChild} as a host of the embedded server; {@link #close()}
 * (called from {@code @AfterEach}) destroys whatever still runs and deletes their scratch directory.
 */
final class Hosts implements AutoCloseable {

    /** The longest wait for any one line or exit; reaching it means a child is stuck. */
    static final Duration WAIT = Duration.ofSeconds(60);

    private final List<ChildProcess> started = new ArrayList<>();
    private @Nullable Path scratch;

    /** Starts one child in {@code mode} with the given arguments, after the mode's. */
    synchronized ChildProcess start(String label, String mode, Object... arguments) {
        List<String> words = new ArrayList<>();
        words.add(mode);
        for (Object argument : arguments) {
            words.add(String.valueOf(argument));
        }
        ChildProcess child = ChildProcess.start(label, ChildProcess.FAST_START_FLAGS, scratch(),
                System.getProperty("java.class.path"), HostChild.class.getName(), words, WAIT);
        started.add(child);
        return child;
    }

    /** Starts {@code count} children in one mode and waits until each has printed READY. */
    List<ChildProcess> startReady(int count, String mode, Object... arguments) {
        List<ChildProcess> children = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            children.add(start(mode + "-" + i, mode, arguments));
        }
        for (ChildProcess child : children) {
            child.expect(HostChild.READY);
        }
        return children;
    }

    /** Writes the same command to every given child. */
    static void sendAll(List<ChildProcess> children, String command) {
        for (ChildProcess child : children) {
            child.send(command);
        }
    }

    @Override
    public synchronized void close() {
        for (ChildProcess child : started) {
            child.close();
        }
        started.clear();
        if (scratch != null) {
            try (Stream<Path> paths = Files.walk(scratch)) {
                paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            } catch (IOException ignored) {
                // a scratch directory left behind in the temporary directory harms nothing
            }
            scratch = null;
        }
    }

    private Path scratch() {
        if (scratch == null) {
            try {
                scratch = Files.createTempDirectory("localqueue-hosts-");
            } catch (IOException failure) {
                throw new UncheckedIOException(failure);
            }
        }
        return scratch;
    }
}
