package io.localqueue.cli;

import io.localqueue.LocalQueueDatabase;
import io.localqueue.Serializer;
import io.localqueue.SimpleQueue;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

/** Opening a queue of the target as stored bytes, whatever its payloads are, and the numbers a table prints. */
final class Queues {

    private Queues() {
    }

    static SimpleQueue<byte[]> open(LocalQueueDatabase database, String name) {
        return SimpleQueue.builder(database, Serializer.bytes()).name(name).build();
    }

    /** Opens a queue that holds a job, or refuses a name no job has, listing the ones that do. */
    static SimpleQueue<byte[]> existing(LocalQueueDatabase database, String name) {
        List<String> names = database.queueNames();
        if (!names.contains(name)) {
            throw new CliProblem("no queue '" + name + "' holds a job here; " + describe(names));
        }
        return open(database, name);
    }

    /**
     * Opens a queue by name whether or not it holds a job yet (a pause or a watch may come first), saying so on
     * {@code err} when no job of it is stored, since a mistyped name looks the same.
     */
    static SimpleQueue<byte[]> named(LocalQueueDatabase database, String name, PrintWriter err) {
        if (!database.queueNames().contains(name)) {
            err.println("note: no job of '" + name + "' is stored here yet (check the name); "
                    + describe(database.queueNames()));
            err.flush();
        }
        return open(database, name);
    }

    /** The queues there are, for a message. */
    static String describe(List<String> names) {
        return names.isEmpty() ? "no queue holds a job here" : "the queues are " + String.join(", ", names);
    }

    static String count(long value) {
        return String.format(Locale.ROOT, "%,d", value);
    }
}
