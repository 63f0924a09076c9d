package io.localqueue.bus;

import io.localqueue.Job;
import io.localqueue.SimpleQueue;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A JVM whose class path lacks Apache Commons CSV: it uses a queue and the event bus, then builds a CSV source, and
 * prints one line for each, for {@link CsvParserAbsentTest}.
 */
public final class WithoutCsvParserChild {

    private WithoutCsvParserChild() {
    }

    public static void main(String[] args) throws Exception {
        Path directory = Path.of(args[0]);
        try {
            Class.forName("org.apache.commons.csv.CSVFormat");
            System.out.println("parser present");
        } catch (ClassNotFoundException absent) {
            System.out.println("parser absent");
        }
        try (SimpleQueue<Object> queue = SimpleQueue.builder(directory).build()) {
            queue.put("hello");
            Job<Object> job = queue.get(Duration.ofSeconds(5));
            queue.ack(job);
            System.out.println("queue ok: " + job.data());
        }
        try (EventBus bus = EventBus.builder(directory).requireSubscribers(false).build()) {
            bus.dispatch(new Greeting("hi"));
            System.out.println("bus ok");
        }
        Path csv = directory.resolve("users.csv");
        Files.writeString(csv, "id\n1\n");
        try {
            CsvSource.of(csv);
            System.out.println("csv built");
        } catch (IllegalStateException refused) {
            System.out.println("csv refused: " + refused.getMessage());
        }
    }

    /** An event nobody routes. */
    public record Greeting(String text) {
    }
}
