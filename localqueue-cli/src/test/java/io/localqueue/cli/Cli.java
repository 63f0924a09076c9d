package io.localqueue.cli;

import java.io.BufferedReader;
import java.io.PrintWriter;
import java.io.StringReader;
import java.io.StringWriter;
import java.util.Map;

/** One run of the command line in this JVM, with what it printed and its exit code. */
record Cli(int exitCode, String out, String err) {

    static Cli run(Map<String, String> environment, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = LocalQueueCli.run(args, new PrintWriter(out, true), new PrintWriter(err, true), environment);
        return new Cli(code, out.toString(), err.toString());
    }

    static Cli run(String... args) {
        return run(Map.of(), args);
    }

    /** Runs a command line whose questions are answered by {@code input}, one line per answer. */
    static Cli answering(String input, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = LocalQueueCli.run(args, new BufferedReader(new StringReader(input)), new PrintWriter(out, true),
                new PrintWriter(err, true), Map.of());
        return new Cli(code, out.toString(), err.toString());
    }
}
