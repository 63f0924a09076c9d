package io.localqueue.multiprocess;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/** The child JVM's side of the line protocol: one event per line on stdout, one command per line from stdin. */
final class ChildProtocol {

    private final PrintStream events;
    private final BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, UTF_8));

    private ChildProtocol(PrintStream events) {
        this.events = events;
    }

    /** Keeps stdout for the protocol only; anything else that writes to System.out (logging) goes to stderr. */
    static ChildProtocol onStdout() {
        PrintStream events = new PrintStream(System.out, true, UTF_8);
        System.setOut(System.err);
        return new ChildProtocol(events);
    }

    /** Prints one event line: the words separated by spaces. */
    void print(Object... words) {
        events.println(Arrays.stream(words).map(String::valueOf).collect(Collectors.joining(" ")));
    }

    /** Prints {@value QueueChild#READY} and waits for {@value QueueChild#GO}, the start barrier. */
    void ready() throws IOException {
        print(QueueChild.READY);
        await(QueueChild.GO);
    }

    /** Waits for {@code command}; ends the child with status 3 when stdin ends first (the test JVM is gone). */
    void await(String command) throws IOException {
        String line = commands.readLine();
        if (line == null) {
            System.err.println("stdin closed while waiting for " + command + "; the test JVM is gone");
            System.exit(3);
        }
        if (!line.equals(command)) {
            throw new IllegalStateException("expected command " + command + " but got " + line);
        }
    }

    /** The next command line, or {@code null} once stdin ends. */
    @Nullable String nextCommand() throws IOException {
        return commands.readLine();
    }
}
