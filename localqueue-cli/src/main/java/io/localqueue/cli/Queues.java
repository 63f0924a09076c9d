package io.localqueue.cli;

import io.localqueue.LocalQueueDatabase;
import io.localqueue.Serializer;
import io.localqueue.SimpleQueue;
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
            throw new CliProblem("no queue '" + name + "' holds a job here; the queues are " + names);
        }
        return open(database, name);
    }

    static String count(long value) {
        return String.format(Locale.ROOT, "%,d", value);
    }
}
