package io.localqueue.benchmark;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * A text file written one whole line at a time, each flushed to the operating system before {@link #line} returns,
 * so that what a process logged survives its {@code kill -9}. Thread-safe. A process killed in the middle of a
 * line leaves it without its newline; {@link #read} drops such a line.
 */
final class LineLog implements AutoCloseable {

    private final BufferedWriter out;

    private LineLog(BufferedWriter out) {
        this.out = out;
    }

    /** Creates {@code file}, which must not exist yet: each process writes files of its own. */
    static LineLog create(Path file) throws IOException {
        return new LineLog(Files.newBufferedWriter(file, UTF_8, StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE));
    }

    /** Appends one line and flushes it. */
    synchronized void line(String text) {
        try {
            out.write(text);
            out.write('\n');
            out.flush();
        } catch (IOException failure) {
            throw new UncheckedIOException(failure);
        }
    }

    @Override
    public synchronized void close() throws IOException {
        out.close();
    }

    /** The complete lines of {@code file}: every line that ends with a newline. */
    static List<String> read(Path file) throws IOException {
        String text = Files.readString(file, UTF_8);
        List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
        lines.remove(lines.size() - 1);
        return lines;
    }
}
