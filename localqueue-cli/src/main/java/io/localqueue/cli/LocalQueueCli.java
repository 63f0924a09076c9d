package io.localqueue.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringReader;
import java.nio.charset.Charset;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code localqueue} command: its subcommands, each with {@code --help}, and the exit codes every one keeps:
 * {@value #OK} done, {@value #PROBLEM} the operation found or met a problem, {@value #USAGE} bad usage.
 *
 * @since 0.1.0
 */
@Command(name = "localqueue", mixinStandardHelpOptions = true, versionProvider = CliVersion.class,
        description = "Operates localqueue queues: a queue directory (--path) or a PostgreSQL schema (--url).",
        subcommands = {QueuesCommand.class, StatsCommand.class, JobsCommand.class, FailedCommand.class,
                PauseCommand.class, PauseCommand.Resume.class, RecurringCommand.class, CheckCommand.class,
                BackupCommand.class, VacuumCommand.class, TailCommand.class, DoctorCommand.class,
                AutoComplete.GenerateCompletion.class},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:done", "1:the operation found or met a problem", "2:bad usage"})
public final class LocalQueueCli implements Runnable {

    /** The exit code of a command that did what it was asked. */
    public static final int OK = 0;
    /** The exit code of a command that found or met a problem: integrity findings, a busy file, an unknown job. */
    public static final int PROBLEM = 1;
    /** The exit code of a command line that is not one. */
    public static final int USAGE = 2;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    private final Map<String, String> environment;
    private final BufferedReader input;

    private LocalQueueCli(Map<String, String> environment, BufferedReader input) {
        this.environment = Map.copyOf(environment);
        this.input = input;
    }

    /** Reads one line an operator typed (an answer to a question), or null when the input ended. */
    @Nullable String readLine() {
        try {
            return input.readLine();
        } catch (IOException unreadable) {
            return null;
        }
    }

    /** The environment variables the command line was run with (a password's). */
    Map<String, String> environment() {
        return environment;
    }

    /**
     * Runs a command line and exits with its code.
     *
     * @param args the arguments
     */
    public static void main(String[] args) {
        System.exit(run(args, new BufferedReader(new InputStreamReader(System.in, Charset.defaultCharset())),
                new PrintWriter(System.out, true), new PrintWriter(System.err, true), System.getenv()));
    }

    /**
     * Runs a command line, writing to the given streams and reading the given environment; a question a command would
     * ask gets no answer, so such a command needs {@code --yes}.
     *
     * @param args the arguments
     * @param out where results go
     * @param err where problems go
     * @param environment the environment variables (a password's)
     * @return the exit code
     * @since 0.1.0
     */
    public static int run(String[] args, PrintWriter out, PrintWriter err, Map<String, String> environment) {
        return run(args, new BufferedReader(new StringReader("")), out, err, environment);
    }

    /** Runs a command line with an operator's answers to its questions read from {@code input}. */
    static int run(String[] args, BufferedReader input, PrintWriter out, PrintWriter err,
                   Map<String, String> environment) {
        CommandLine line = new CommandLine(new LocalQueueCli(environment, input));
        line.setCaseInsensitiveEnumValuesAllowed(true);
        line.setOut(out).setErr(err);
        line.setExecutionExceptionHandler(new Problems());
        line.setParameterExceptionHandler(new Problems.Usage());
        return line.execute(args);
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "name a command: queues, stats, jobs, failed, "
                + "pause, resume, recurring, check, backup, vacuum, tail or doctor (--help says what each does)");
    }
}
