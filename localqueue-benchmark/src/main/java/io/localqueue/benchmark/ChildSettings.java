package io.localqueue.benchmark;

import io.localqueue.DurabilityMode;
import io.localqueue.SimpleQueue;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code key=value} settings a child JVM was started with; every child gets {@code dir}, {@code mode} and
 * {@code queue} (and, on a PostgreSQL run, {@code store} and {@code url}), and a missing setting fails the child with
 * its name.
 *
 * @param values the settings by key
 */
record ChildSettings(Map<String, String> values) {

    /**
     * Parses {@code key=value} arguments.
     *
     * @param args the arguments
     * @param from the index of the first setting
     * @return the settings
     */
    static ChildSettings parse(String[] args, int from) {
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = from; i < args.length; i++) {
            int equals = args[i].indexOf('=');
            values.put(args[i].substring(0, equals), args[i].substring(equals + 1));
        }
        return new ChildSettings(Map.copyOf(values));
    }

    /**
     * Returns a setting.
     *
     * @param key its name
     * @return its text
     * @throws IllegalArgumentException when the child was started without it
     */
    String text(String key) {
        String value = values.get(key);
        if (value == null) {
            throw new IllegalArgumentException("child setting '" + key + "' is missing");
        }
        return value;
    }

    /**
     * Returns a whole-number setting.
     *
     * @param key its name
     * @return its value
     */
    long number(String key) {
        return Long.parseLong(text(key));
    }

    /** Returns the queue directory ({@code dir}). */
    Path directory() {
        return Path.of(text("dir"));
    }

    /** Returns the durability mode ({@code mode}). */
    DurabilityMode mode() {
        return DurabilityMode.valueOf(text("mode"));
    }

    /** Returns the store the queues are on ({@code store}, and its own settings; SQLite when absent). */
    BenchStore store() {
        return BenchStore.of(this);
    }

    /** Returns the measured queue's name ({@code queue}). */
    String queue() {
        return text("queue");
    }

    /**
     * Opens the measured queue.
     *
     * @return the queue
     */
    SimpleQueue<BenchMessage> openQueue() {
        return store().openQueue(directory(), queue(), mode());
    }

    /**
     * Opens the queue beside the measured one on which every producer and consumer of a mix warms up together, so
     * the paths across processes (wake-ups, turns, contention) are compiled before the measurement.
     *
     * @return the queue
     */
    SimpleQueue<BenchMessage> openSharedWarmupQueue() {
        return store().openQueue(directory(), queue() + "-warmup", mode());
    }

    /**
     * Opens a private queue beside the measured one, named after it, {@code role} and this child's {@code id}.
     *
     * @param role a short tag such as {@code warmup-p}
     * @return the queue
     */
    SimpleQueue<BenchMessage> openPrivateQueue(String role) {
        return store().openQueue(directory(), queue() + "-" + role + text("id"), mode());
    }
}
