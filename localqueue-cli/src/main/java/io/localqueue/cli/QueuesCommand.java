package io.localqueue.cli;

import io.localqueue.LocalQueueDatabase;
import io.localqueue.QueueDiagnostics;
import io.localqueue.SimpleQueue;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;

/** {@code localqueue queues}: every queue holding a job, with its counts by state (one exact count per queue). */
@Command(name = "queues", mixinStandardHelpOptions = true,
        description = "Lists the queues and their counts: ready, delayed, leased, acked, dead.")
final class QueuesCommand extends TargetCommand {

    @Override
    public void run() {
        try (LocalQueueDatabase database = open()) {
            List<QueueRow> queues = new ArrayList<>();
            for (String name : database.queueNames()) {
                try (SimpleQueue<byte[]> queue = Queues.open(database, name)) {
                    QueueDiagnostics d = queue.diagnostics();
                    queues.add(new QueueRow(name, d.ready() - d.delayed(), d.delayed(), d.processing(), d.acked(),
                            d.failed()));
                }
            }
            List<List<String>> rows = queues.stream().map(q -> List.of(q.name(), Queues.count(q.ready()),
                    Queues.count(q.delayed()), Queues.count(q.leased()), Queues.count(q.acked()),
                    Queues.count(q.dead()))).toList();
            output.print(out(), new Document(queues),
                    List.of("QUEUE", "READY", "DELAYED", "LEASED", "ACKED", "DEAD"), rows);
        }
    }

    /**
     * The JSON of {@code queues}.
     *
     * @param queues every queue, by name
     */
    record Document(List<QueueRow> queues) {
    }

    /**
     * One queue.
     *
     * @param name its name
     * @param ready jobs due now
     * @param delayed jobs due later
     * @param leased jobs under a lease
     * @param acked acknowledged jobs kept
     * @param dead dead letters
     */
    record QueueRow(String name, long ready, long delayed, long leased, long acked, long dead) {
    }
}
