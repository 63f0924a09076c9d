package io.localqueue.cli;

import io.localqueue.LocalQueueDatabase;
import io.localqueue.Serializer;
import io.localqueue.SimpleQueue;
import java.util.Locale;

/** Opening a queue of the target as stored bytes, whatever its payloads are, and the numbers a table prints. */
final class Queues {

    private Queues() {
    }

    static SimpleQueue<byte[]> open(LocalQueueDatabase database, String name) {
        return SimpleQueue.builder(database, Serializer.bytes()).name(name).build();
    }

    static String count(long value) {
        return String.format(Locale.ROOT, "%,d", value);
    }
}
