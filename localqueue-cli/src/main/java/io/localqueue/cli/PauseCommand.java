package io.localqueue.cli;

import io.localqueue.LocalQueueDatabase;
import io.localqueue.SimpleQueue;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code localqueue pause} and {@code resume}: a queue's pause for every process of this library on the file or
 * schema, which outlasts restarts; puts go on, and jobs in hand finish.
 */
@Command(name = "pause", mixinStandardHelpOptions = true,
        description = "Pauses a queue for every consumer of this library (puts go on; jobs in hand finish).")
class PauseCommand extends TargetCommand {

    @Option(names = "--queue", required = true, paramLabel = "NAME", description = "The queue.")
    String queue;

    /** Whether this command pauses (true) or resumes. */
    boolean pauses() {
        return true;
    }

    @Override
    public void run() {
        try (LocalQueueDatabase database = openForWriting();
             SimpleQueue<byte[]> jobs = Queues.named(database, queue, err())) {
            boolean changed = pauses() ? jobs.pause() : jobs.resume();
            Map<String, Object> document = new LinkedHashMap<>();
            document.put("queue", queue);
            document.put("paused", jobs.isPaused());
            document.put("changed", changed);
            if (output.json) {
                output.print(out(), document);
                return;
            }
            out().println(queue + (pauses() ? (changed ? " is paused: no consumer of this library claims its jobs "
                    + "until resume (Python consumers do not obey pauses)" : " was paused already")
                    : (changed ? " runs again" : " was not paused")));
            out().flush();
        }
    }

    /** {@code localqueue resume}. */
    @Command(name = "resume", mixinStandardHelpOptions = true, description = "Resumes a paused queue.")
    static final class Resume extends PauseCommand {

        @Override
        boolean pauses() {
            return false;
        }
    }
}
