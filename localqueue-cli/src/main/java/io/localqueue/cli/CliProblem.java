package io.localqueue.cli;

/** A problem a command met that it reports in one line, with the next step, and exit code 1. */
final class CliProblem extends RuntimeException {

    private static final long serialVersionUID = 1L;

    CliProblem(String message) {
        super(message, null, false, false);
    }
}
