package io.localqueue.cli;

import io.localqueue.JobNotFoundException;
import io.localqueue.SimpleQueue;
import picocli.CommandLine.Command;

/** {@code localqueue failed retry}: dead letters back to ready with a fresh delivery budget. */
@Command(name = "retry", mixinStandardHelpOptions = true,
        description = "Moves dead letters back to ready with a fresh delivery budget (ids, --all or --older-than).")
final class FailedRetryCommand extends FailedChangeCommand {

    @Override
    String verb() {
        return "retry";
    }

    @Override
    boolean change(SimpleQueue<byte[]> queue, long id) {
        try {
            queue.retryFailed(id);
            return true;
        } catch (JobNotFoundException notADeadLetter) {
            return false;
        }
    }
}
