package io.localqueue.benchmark;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * The entry point of the benchmark's child JVMs. The first argument names the role ({@code producer},
 * {@code consumer}, {@code waker}, {@code idle}, {@code soak-producer} or {@code soak-consumer}); the others are
 * {@code key=value} settings. Children speak a line protocol: events on stdout ({@code READY}, {@code DONE …}),
 * commands on stdin ({@code GO}, {@code STOP}, …); logs go to stderr.
 */
public final class ChildMain {

    private ChildMain() {
    }

    /**
     * Runs one role and exits with status 0, or prints the failure to stderr and exits with status 1.
     *
     * @param args the role, then {@code key=value} settings
     */
    public static void main(String[] args) {
        try {
            ChildSettings settings = ChildSettings.parse(args, 1);
            ChildIo io = new ChildIo();
            switch (args[0]) {
                case ProducerChild.ROLE -> ProducerChild.run(settings, io);
                case ConsumerChild.ROLE -> ConsumerChild.run(settings, io);
                case WakerChild.ROLE -> WakerChild.run(settings, io);
                case IdleChild.ROLE -> IdleChild.run(settings, io);
                case SoakProducerChild.ROLE -> SoakProducerChild.run(settings, io);
                case SoakConsumerChild.ROLE -> SoakConsumerChild.run(settings, io);
                default -> throw new IllegalArgumentException("unknown role " + args[0]);
            }
        } catch (Throwable failure) {
            failure.printStackTrace();
            System.exit(1);
        }
        System.exit(0);
    }

    /** A child's end of the line protocol. */
    static final class ChildIo {

        private final BufferedReader stdin = new BufferedReader(
                new InputStreamReader(System.in, StandardCharsets.UTF_8));

        /**
         * Prints one event line.
         *
         * @param line the event
         */
        void emit(String line) {
            System.out.println(line);
            System.out.flush();
        }

        /**
         * Reads the next command line.
         *
         * @return the line
         * @throws IOException when the parent closed the pipe
         */
        String next() throws IOException {
            String line = stdin.readLine();
            if (line == null) {
                throw new IOException("the parent closed standard input");
            }
            return line;
        }

        /**
         * Reads lines until one equals {@code command}.
         *
         * @param command the awaited command
         * @throws IOException when the parent closed the pipe
         */
        void await(String command) throws IOException {
            String line;
            do {
                line = next();
            } while (!line.equals(command));
        }
    }
}
