package io.localqueue.benchmark;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A child JVM running {@link ChildMain} on the benchmark's class path, driven by a line protocol: the child writes
 * one event per stdout line, the parent writes commands to its stdin. Output is drained by daemon threads so the
 * child never blocks on a full pipe; every wait is bounded; failures carry the child's stderr.
 */
public final class ChildJvm implements AutoCloseable {

    /** The flags of every child: a small heap and the serial collector, which suit many JVMs on few cores. */
    public static final List<String> JVM_FLAGS = List.of("-Xmx256m", "-XX:+UseSerialGC");

    /** The longest wait for any one line, unless the caller says otherwise. */
    public static final Duration DEFAULT_WAIT = Duration.ofMinutes(2);

    private static final String END_OF_STREAM = "\u0000end-of-stream";
    private static final int STDERR_LIMIT = 32 * 1024;

    private final String label;
    private final Process process;
    private final Writer stdin;
    private final BlockingQueue<String> stdout = new LinkedBlockingQueue<>();
    private final StringBuilder stderr = new StringBuilder();

    private ChildJvm(String label, Process process) {
        this.label = label;
        this.process = process;
        this.stdin = new OutputStreamWriter(process.getOutputStream(), UTF_8);
        drain(process.getInputStream(), "stdout", stdout::add, () -> stdout.add(END_OF_STREAM));
        drain(process.getErrorStream(), "stderr", this::appendStderr, () -> { });
    }

    /**
     * Starts a child in one of {@link ChildMain}'s roles.
     *
     * @param label a short name for messages
     * @param scratch the child's temporary directory (the SQLite driver unpacks its native library there)
     * @param role the role
     * @param arguments the role's arguments
     * @return the running child
     */
    public static ChildJvm start(String label, Path scratch, String role, List<String> arguments) {
        List<String> command = new ArrayList<>();
        command.add(javaExecutable());
        command.addAll(JVM_FLAGS);
        command.add("-Djava.io.tmpdir=" + scratch);
        command.add("-Dorg.sqlite.tmpdir=" + scratch);
        command.add("-cp");
        command.add(classPath());
        command.add(ChildMain.class.getName());
        command.add(role);
        command.addAll(arguments);
        try {
            return new ChildJvm(label, new ProcessBuilder(command).start());
        } catch (IOException failure) {
            throw new IllegalStateException("cannot start child JVM " + label + ": " + failure, failure);
        }
    }

    /**
     * Waits until every child has printed {@code READY}, then sends {@code GO} to all of them at once.
     *
     * @param children the children
     * @return the {@code System.nanoTime()} just before the first {@code GO} was sent
     */
    public static long releaseTogether(List<ChildJvm> children) {
        for (ChildJvm child : children) {
            child.expect("READY");
        }
        long go = System.nanoTime();
        for (ChildJvm child : children) {
            child.send("GO");
        }
        return go;
    }

    /**
     * Returns the class path of the benchmark's own classes: the JVM's class path when it holds them (a plain
     * {@code java -cp} run, or a test), otherwise the URLs of the class loader that loaded them (as under
     * {@code exec:java}, which runs the module inside Maven's JVM).
     *
     * @return the class path for a child
     */
    static String classPath() {
        String jvmClassPath = System.getProperty("java.class.path", "");
        Optional<Path> own = ownLocation();
        if (own.isEmpty()) {
            return jvmClassPath;
        }
        for (String entry : jvmClassPath.split(java.io.File.pathSeparator)) {
            if (!entry.isEmpty() && Path.of(entry).toAbsolutePath().normalize().equals(own.get())) {
                return jvmClassPath;
            }
        }
        for (ClassLoader loader = ChildJvm.class.getClassLoader(); loader != null; loader = loader.getParent()) {
            if (loader instanceof URLClassLoader urls) {
                List<String> entries = new ArrayList<>();
                boolean holdsOwn = false;
                for (URL url : urls.getURLs()) {
                    Optional<Path> path = toPath(url);
                    if (path.isPresent()) {
                        entries.add(path.get().toString());
                        holdsOwn |= path.get().equals(own.get());
                    }
                }
                if (holdsOwn) {
                    return String.join(java.io.File.pathSeparator, entries);
                }
            }
        }
        return jvmClassPath;
    }

    private static Optional<Path> ownLocation() {
        var source = ChildJvm.class.getProtectionDomain().getCodeSource();
        return source == null ? Optional.empty() : toPath(source.getLocation());
    }

    private static Optional<Path> toPath(URL url) {
        try {
            return Optional.of(Path.of(url.toURI()).toAbsolutePath().normalize());
        } catch (URISyntaxException | IllegalArgumentException | java.nio.file.FileSystemNotFoundException notFile) {
            return Optional.empty();
        }
    }

    private static String javaExecutable() {
        return ProcessHandle.current().info().command()
                .orElseGet(() -> Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    /**
     * Returns the next stdout line.
     *
     * @param timeout how long to wait
     * @return the line
     * @throws IllegalStateException when the child ended its output or stayed silent
     */
    public String nextLine(Duration timeout) {
        String line;
        try {
            line = stdout.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw failure("was awaited by an interrupted thread");
        }
        if (line == null) {
            throw failure("printed nothing for " + timeout);
        }
        if (line.equals(END_OF_STREAM)) {
            stdout.add(END_OF_STREAM);
            throw failure("ended its output");
        }
        return line;
    }

    /**
     * Reads the next line, which must start with {@code event}, and returns the words after it.
     *
     * @param event the expected first word
     * @return the following words
     */
    public List<String> expect(String event) {
        return expect(event, DEFAULT_WAIT);
    }

    /**
     * Reads the next line within {@code timeout}, which must start with {@code event}.
     *
     * @param event the expected first word
     * @param timeout how long to wait
     * @return the following words
     */
    public List<String> expect(String event, Duration timeout) {
        String line = nextLine(timeout);
        List<String> words = Arrays.asList(line.split(" "));
        if (!words.get(0).equals(event)) {
            throw failure("printed '" + line + "' where " + event + " was expected");
        }
        return words.subList(1, words.size());
    }

    /**
     * Writes one command line to the child.
     *
     * @param command the command
     */
    public void send(String command) {
        try {
            stdin.write(command);
            stdin.write('\n');
            stdin.flush();
        } catch (IOException closed) {
            throw failure("could not be sent '" + command + "': " + closed);
        }
    }

    /**
     * Waits for the child to exit with status 0.
     *
     * @throws IllegalStateException when it exits otherwise or does not exit in time
     */
    public void awaitSuccess() {
        try {
            if (!process.waitFor(DEFAULT_WAIT.toNanos(), TimeUnit.NANOSECONDS)) {
                throw failure("still runs after " + DEFAULT_WAIT);
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw failure("was awaited by an interrupted thread");
        }
        if (process.exitValue() != 0) {
            throw failure("exited with status " + process.exitValue());
        }
    }

    /** Destroys the child if it still runs; never throws. */
    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
            try {
                process.waitFor(5, TimeUnit.SECONDS);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        try {
            stdin.close();
        } catch (IOException ignored) {
            // the child is gone and its pipe with it
        }
    }

    private IllegalStateException failure(String what) {
        try {
            process.waitFor(2, TimeUnit.SECONDS);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
        String status = process.isAlive() ? "still running" : "exit status " + process.exitValue();
        String errors;
        synchronized (stderr) {
            errors = stderr.toString();
        }
        return new IllegalStateException("child JVM " + label + " (" + status + ") " + what
                + (errors.isEmpty() ? "" : "\n--- stderr of " + label + " ---\n" + errors));
    }

    private void appendStderr(String line) {
        synchronized (stderr) {
            stderr.append(line).append('\n');
            if (stderr.length() > STDERR_LIMIT) {
                stderr.delete(0, stderr.length() - STDERR_LIMIT);
            }
        }
    }

    private void drain(InputStream stream, String name, Consumer<String> lines, Runnable atEnd) {
        Thread thread = new Thread(() -> {
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(stream, UTF_8))) {
                String line;
                while ((line = reader.readLine()) != null) {
                    lines.accept(line);
                }
            } catch (IOException closed) {
                // the child was destroyed; what it wrote has been delivered
            } finally {
                atEnd.run();
            }
        }, "benchmark-child-" + label + "-" + name);
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public String toString() {
        return "ChildJvm[" + label + "]";
    }
}
