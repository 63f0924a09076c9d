package io.localqueue.cli;

import io.localqueue.LocalQueueDatabase;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Mixin;

/** A command that works on one target's queues and prints a table or JSON: what every such command shares. */
abstract class TargetCommand implements Runnable {

    @CommandLine.ParentCommand
    LocalQueueCli cli;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    Target target;

    @Mixin
    Output output;

    /** Opens the target the command line names. */
    LocalQueueDatabase open() {
        return target.open(cli.environment());
    }

    /** Where results go. */
    PrintWriter out() {
        return spec.commandLine().getOut();
    }
}
