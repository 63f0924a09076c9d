package io.localqueue.cli;

import io.localqueue.LocalQueueDatabase;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Mixin;

/** A command that works on one target's queues and prints a table or JSON: what every such command shares. */
abstract class TargetCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    Target target;

    @Mixin
    Output output;

    /** Opens the target the command line names, for reading: a file of another layout is read through a copy. */
    LocalQueueDatabase open() {
        return target.open(root().environment(), Target.Access.READ, err());
    }

    /**
     * Opens the target the command line names for the reads that check a write before it is made (so that nothing is
     * changed when the write is refused): refused wherever {@link #openForWriting()} would be.
     */
    LocalQueueDatabase openToCheck() {
        return target.open(root().environment(), Target.Access.CHECK, err());
    }

    /** Opens the target the command line names, for writing: a file of another layout needs {@code --upgrade}. */
    LocalQueueDatabase openForWriting() {
        return target.open(root().environment(), Target.Access.WRITE, err());
    }

    /** The command line's root, which holds the environment and the input. */
    LocalQueueCli root() {
        CommandLine line = spec.commandLine();
        while (line.getParent() != null) {
            line = line.getParent();
        }
        return line.getCommand();
    }

    /**
     * Asks before a change of many jobs: true with {@code --yes}, or when the operator answers yes; without an
     * answer (no terminal, end of input) the change is refused, naming {@code --yes}.
     */
    boolean confirm(boolean yes, String question) {
        if (yes) {
            return true;
        }
        PrintWriter err = err();
        err.print(question + " [y/N] ");
        err.flush();
        String answer = root().readLine();
        if (answer == null) {
            throw new CliProblem("no answer to confirm with (input ended); run it again with --yes");
        }
        return answer.strip().equalsIgnoreCase("y") || answer.strip().equalsIgnoreCase("yes");
    }

    /** Where results go. */
    PrintWriter out() {
        return spec.commandLine().getOut();
    }

    /** Where notes and problems go. */
    PrintWriter err() {
        return spec.commandLine().getErr();
    }
}
