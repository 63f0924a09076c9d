package io.localqueue.cli;

import io.localqueue.DatabaseBusyException;
import io.localqueue.LocalQueueException;
import java.io.PrintWriter;
import picocli.CommandLine;

/**
 * Turns what a command met into its message and exit code: a problem of the queues (a missing file, a busy database,
 * an unknown job) is one line and exit 1; anything else is a bug, printed with its stack trace.
 */
final class Problems implements CommandLine.IExecutionExceptionHandler {

    @Override
    public int handleExecutionException(Exception failure, CommandLine line, CommandLine.ParseResult parsed)
            throws Exception {
        if (failure instanceof CommandLine.ParameterException usage) {
            // a command line that parsed but names no target, or two: bad usage, as a parse error is
            return usage.getCommandLine().getParameterExceptionHandler().handleParseException(usage,
                    parsed.originalArgs().toArray(String[]::new));
        }
        if (failure instanceof CliProblem || failure instanceof LocalQueueException
                || failure instanceof IllegalArgumentException) {
            String next = failure instanceof DatabaseBusyException
                    ? "; nothing was changed: run it again once the other writer is done" : "";
            line.getErr().println(line.getColorScheme().errorText(line.getCommandSpec().qualifiedName(" ") + ": "
                    + failure.getMessage() + next));
            return LocalQueueCli.PROBLEM;
        }
        failure.printStackTrace(line.getErr());
        return LocalQueueCli.PROBLEM;
    }

    /**
     * Bad usage: the message, then the usage of the command (or picocli's suggestion of the command meant), exit
     * {@value LocalQueueCli#USAGE}.
     */
    static final class Usage implements CommandLine.IParameterExceptionHandler {

        @Override
        public int handleParseException(CommandLine.ParameterException failure, String[] args) {
            CommandLine line = failure.getCommandLine();
            PrintWriter err = line.getErr();
            err.println(line.getColorScheme().errorText(line.getCommandSpec().qualifiedName(" ") + ": "
                    + failure.getMessage()));
            if (!CommandLine.UnmatchedArgumentException.printSuggestions(failure, err)) {
                line.usage(err, line.getColorScheme());
            }
            err.flush();
            return LocalQueueCli.USAGE;
        }
    }
}
