package io.localqueue.cli;

import io.localqueue.SimpleQueue;
import picocli.CommandLine.Command;

/** {@code localqueue failed purge}: dead letters deleted with their headers. */
@Command(name = "purge", mixinStandardHelpOptions = true,
        description = "Deletes dead letters with their headers (ids, --all or --older-than).")
final class FailedPurgeCommand extends FailedChangeCommand {

    @Override
    String verb() {
        return "purge";
    }

    @Override
    boolean change(SimpleQueue<byte[]> queue, long id) {
        return queue.deleteFailed(id);
    }
}
