package io.localqueue.cli;

import io.localqueue.JobState;
import picocli.CommandLine.Command;

/** {@code localqueue failed list}: a page of a queue's dead letters, as {@code jobs --state failed} lists them. */
@Command(name = "list", mixinStandardHelpOptions = true,
        description = "Lists a queue's dead letters, a page at a time, with why each failed.")
final class FailedListCommand extends JobPageCommand {

    @Override
    JobState state() {
        return JobState.FAILED;
    }
}
