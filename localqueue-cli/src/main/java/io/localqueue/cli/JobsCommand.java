package io.localqueue.cli;

import io.localqueue.JobState;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code localqueue jobs}: a page of a queue's jobs in the state asked for. */
@Command(name = "jobs", mixinStandardHelpOptions = true,
        description = "Lists a queue's jobs in one state, a page at a time (--after continues a page).")
final class JobsCommand extends JobPageCommand {

    @Option(names = "--state", required = true, paramLabel = "STATE", converter = Arguments.StateConverter.class,
            description = "ready, delayed, leased, failed or acked.")
    JobState state;

    @Override
    JobState state() {
        return state;
    }
}
