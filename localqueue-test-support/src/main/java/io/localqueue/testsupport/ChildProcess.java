package io.localqueue.testsupport;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A child JVM running a main class, driven by a line protocol: the child writes one event per
 * stdout line, the test writes commands to its stdin. Stdout and stderr are drained by daemon threads so the child
 * never blocks on a full pipe; every wait is bounded and every failure message carries the child's stderr.
 */
public final class ChildProcess implements AutoCloseable {

    /** Flags for many short-lived JVMs on few cores: quick start, small heap, serial collector. */
    public static final List<String> FAST_START_FLAGS = List.of(
            "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto", "-Xmx128m", "-XX:-UsePerfData");

    private static final String END_OF_STREAM = "\u0000end-of-stream";
    private static final int STDERR_LIMIT = 64 * 1024;

    private final String label;
    private final Process process;
    private final Duration defaultWait;
    private final Writer stdin;
    private final BlockingQueue<String> stdout = new LinkedBlockingQueue<>();
    private final StringBuilder stderr = new StringBuilder();
    private boolean stdoutEnded;

    private ChildProcess(String label, Process process, Duration defaultWait) {
        this.label = label;
        this.process = process;
        this.defaultWait = defaultWait;
        this.stdin = new OutputStreamWriter(process.getOutputStream(), UTF_8);
        drain(process.getInputStream(), "stdout", stdout::add, () -> stdout.add(END_OF_STREAM));
        drain(process.getErrorStream(), "stderr", this::appendStderr, () -> { });
    }

    /**
     * Starts {@code mainClass} in a new JVM.
     *
     * @param label a short name used in failure messages
     * @param jvmFlags flags for the child JVM
     * @param scratch the child's temporary directory, where the SQLite driver unpacks its native library; a child
     *                killed by SIGKILL leaves that copy behind, so the caller deletes the directory afterwards
     * @param classPath the child's class path
     * @param mainClass the class whose {@code main} runs
     * @param arguments its arguments
     * @param defaultWait the longest wait for any one line or exit when a call names none
     * @return the running child
     */
    public static ChildProcess start(String label, List<String> jvmFlags, Path scratch, String classPath,
                                     String mainClass, List<String> arguments, Duration defaultWait) {
        List<String> command = new ArrayList<>();
        command.add(javaExecutable());
        command.addAll(jvmFlags);
        command.add("-Djava.io.tmpdir=" + scratch);
        command.add("-Dorg.sqlite.tmpdir=" + scratch);
        command.add("-cp");
        command.add(classPath);
        command.add(mainClass);
        command.addAll(arguments);
        try {
            return new ChildProcess(label, new ProcessBuilder(command).start(), defaultWait);
        } catch (IOException failure) {
            throw new UncheckedIOException("cannot start child JVM " + label, failure);
        }
    }

    /**
     * Waits until every child has printed {@code READY}, then sends {@code GO} to all of them at once.
     *
     * @param children the children
     * @return the {@code System.nanoTime()} just before the first {@code GO} was sent
     */
    public static long releaseTogether(List<ChildProcess> children) {
        for (ChildProcess child : children) {
            child.expect("READY");
        }
        long go = System.nanoTime();
        for (ChildProcess child : children) {
            child.send("GO");
        }
        return go;
    }

    private static String javaExecutable() {
        Optional<String> current = ProcessHandle.current().info().command();
        return current.orElseGet(() -> Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    /**
     * Returns the child's short name.
     *
     * @return the label
     */
    public String label() {
        return label;
    }

    /**
     * Returns the child's process id.
     *
     * @return the pid
     */
    public long pid() {
        return process.pid();
    }

    /** Returns the next stdout line, failing when the child ends its output or stays silent too long. */
    public String nextLine() {
        return nextLine(defaultWait);
    }

    /**
     * Returns the next stdout line, waiting at most {@code timeout}.
     *
     * @param timeout how long to wait
     * @return the line
     */
    public String nextLine(Duration timeout) {
        if (stdoutEnded) {
            throw failure("ended its output");
        }
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
            stdoutEnded = true;
            waitQuietly();
            throw failure("ended its output");
        }
        return line;
    }

    /**
     * Returns every stdout line still to come, once the child has ended its output and exited, failing when it still
     * runs after {@code timeout}.
     *
     * @param timeout how long to wait for the child to end
     * @return the lines, in order
     */
    public List<String> linesUntilExit(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<String> lines = new ArrayList<>();
        while (!stdoutEnded) {
            String line;
            try {
                line = stdout.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                throw failure("was awaited by an interrupted thread");
            }
            if (line == null) {
                throw failure("still prints after " + timeout + "; so far: " + lines);
            }
            if (line.equals(END_OF_STREAM)) {
                stdoutEnded = true;
            } else {
                lines.add(line);
            }
        }
        awaitExit(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
        return lines;
    }

    /** Reads the next line and fails unless it starts with {@code event}; returns the words after it. */
    public List<String> expect(String event) {
        return expect(event, defaultWait);
    }

    /**
     * Reads the next line, waiting at most {@code timeout}, and fails unless it starts with {@code event}.
     *
     * @param event the expected first word
     * @param timeout how long to wait
     * @return the words after it
     */
    public List<String> expect(String event, Duration timeout) {
        String line = nextLine(timeout);
        List<String> words = List.of(line.split(" "));
        if (!words.get(0).equals(event)) {
            throw failure("printed '" + line + "' where " + event + " was expected");
        }
        return words.subList(1, words.size());
    }

    /** Writes one command line to the child's stdin. */
    public void send(String command) {
        try {
            stdin.write(command);
            stdin.write('\n');
            stdin.flush();
        } catch (IOException closed) {
            throw failure("cannot be sent '" + command + "': " + closed);
        }
    }

    /** Waits for the child to exit and fails, with its stderr, unless it exited with status 0. */
    public void awaitSuccess() {
        int status = awaitExit(defaultWait);
        if (status != 0) {
            throw failure("exited with status " + status);
        }
    }

    /** Waits for the child to exit and returns its status, failing when it is still running after the timeout. */
    public int awaitExit(Duration timeout) {
        try {
            if (!process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
                throw failure("still runs after " + timeout);
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw failure("was awaited by an interrupted thread");
        }
        return process.exitValue();
    }

    /**
     * Kills the child with SIGKILL, as {@code kill -9} would, and returns once the operating system reports it gone.
     *
     * @return the exit status the JVM reports for the killed child
     */
    public int killHard() {
        ProcessHandle handle = process.toHandle();
        process.destroyForcibly();
        int status = awaitExit(Duration.ofSeconds(30));
        if (handle.isAlive() || ProcessHandle.of(pid()).map(ProcessHandle::isAlive).orElse(false)) {
            throw failure("is still alive after SIGKILL");
        }
        return status;
    }

    /**
     * Asks the child to stop with SIGTERM, as a container platform or {@code kill} does, and returns at once; the
     * child's shutdown hooks run, so it may keep printing until it exits. Goes through the process handle, since
     * {@code Process.destroy()} would also close the pipes and lose what the child prints while it stops.
     */
    public void terminate() {
        process.toHandle().destroy();
    }

    /**
     * Returns whether the child still runs.
     *
     * @return true while it runs
     */
    public boolean isAlive() {
        return process.isAlive();
    }

    /** Returns what the child wrote to stderr so far (the tail, when it wrote a lot). */
    public String stderr() {
        synchronized (stderr) {
            return stderr.toString();
        }
    }

    /** Destroys the child forcibly if it still runs; never throws. */
    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
            waitQuietly();
        }
        try {
            stdin.close();
        } catch (IOException ignored) {
            // the child is gone; its pipe may already be broken
        }
    }

    private IllegalStateException failure(String what) {
        waitQuietly();
        String status = process.isAlive() ? "still running" : "exit status " + process.exitValue();
        return new IllegalStateException("child JVM " + label + " (pid " + pid() + ", " + status + ") " + what
                + "\n--- stderr of " + label + " ---\n" + stderr());
    }

    /** Gives a dying child a moment to exit so that its status and last stderr lines are reported. */
    private void waitQuietly() {
        try {
            process.waitFor(2, TimeUnit.SECONDS);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
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
                // the child was destroyed; whatever it wrote has been delivered
            } finally {
                atEnd.run();
            }
        }, "child-" + label + "-" + name);
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public String toString() {
        return "ChildProcess[" + label + ", pid " + pid() + "]";
    }
}
