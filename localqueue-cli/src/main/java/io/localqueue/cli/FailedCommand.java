package io.localqueue.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code localqueue failed}: a queue's dead letters, to list, show, retry or purge. */
@Command(name = "failed", mixinStandardHelpOptions = true,
        description = "Lists, shows, retries or purges a queue's dead letters.",
        subcommands = {FailedListCommand.class, FailedShowCommand.class, FailedRetryCommand.class,
                FailedPurgeCommand.class})
final class FailedCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "name what to do: failed list, show, retry or "
                + "purge");
    }
}
