package io.localqueue.multiprocess;

import io.localqueue.LocalQueueDatabase;
import io.localqueue.RecurringJobs;

/**
 * The child JVM of {@link MultiProcessRecurringTest}: opens the database its argument names
 * ({@link MaintenanceChild#database}), starts firing the ticks of its recurring jobs, prints
 * {@value QueueChild#READY}, waits for {@value QueueChild#GO}, and fires until told {@value QueueChild#STOP} (or
 * killed), then prints {@value QueueChild#DONE}.
 */
final class RecurringChild {

    private RecurringChild() {
    }

    public static void main(String[] args) throws Exception {
        ChildProtocol protocol = ChildProtocol.onStdout();
        try (LocalQueueDatabase database = MaintenanceChild.database(args[0]);
             RecurringJobs recurring = RecurringJobs.on(database)) {
            recurring.start();
            protocol.ready();
            protocol.await(QueueChild.STOP);
        }
        protocol.print(QueueChild.DONE);
        System.exit(0);
    }
}
