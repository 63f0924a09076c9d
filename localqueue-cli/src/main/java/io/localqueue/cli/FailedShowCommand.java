package io.localqueue.cli;

import io.localqueue.JobState;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.SimpleQueue;
import io.localqueue.StoredJob;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code localqueue failed show}: one dead letter with its whole error, headers and payload. */
@Command(name = "show", mixinStandardHelpOptions = true,
        description = "Shows one dead letter: why it failed, its last error, headers and payload (UTF-8 text, or "
                + "base64 for other bytes).")
final class FailedShowCommand extends TargetCommand {

    @Option(names = "--queue", required = true, paramLabel = "NAME", description = "The queue.")
    String queue;

    @Parameters(paramLabel = "ID", converter = Arguments.IdConverter.class, description = "The dead letter's id.")
    long id;

    @Override
    public void run() {
        try (LocalQueueDatabase database = open(); SimpleQueue<byte[]> jobs = Queues.existing(database, queue)) {
            StoredJob<byte[]> job = jobs.findJob(id).orElseThrow(() -> new CliProblem("no job " + id + " in queue '"
                    + queue + "'; 'failed list --queue " + queue + "' lists its dead letters"));
            if (job.state() != JobState.FAILED) {
                throw new CliProblem("job " + id + " of '" + queue + "' is " + job.state().name().toLowerCase(
                        java.util.Locale.ROOT) + ", not a dead letter");
            }
            output.print(out(), Jobs.fields(job, true));
        }
    }
}
