package io.localqueue.cli;

import io.localqueue.JobCursor;
import io.localqueue.JobState;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.SimpleQueue;
import io.localqueue.StoredJob;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * A change of dead letters, {@code failed retry} and {@code failed purge}: of the ids given, or of every dead letter
 * (older than {@code --older-than}), asked first unless {@code --yes}; ids that name no dead letter of the queue are
 * reported and make the exit code 1, the others are still changed.
 */
abstract class FailedChangeCommand extends TargetCommand {

    @Option(names = "--queue", required = true, paramLabel = "NAME", description = "The queue.")
    String queue;

    @Parameters(paramLabel = "ID", arity = "0..*", description = "The dead letters' ids.")
    List<String> ids = new ArrayList<>();

    @Option(names = "--all", description = "Every dead letter of the queue (with --older-than, the older ones).")
    boolean all;

    @Option(names = "--older-than", paramLabel = "DURATION", converter = Arguments.DurationConverter.class,
            description = "Only dead letters that failed longer ago than this: 90s, 15m, 12h, 7d or PT1H (implies "
                    + "--all).")
    @Nullable Duration olderThan;

    @Option(names = {"-y", "--yes"}, description = "Do not ask first.")
    boolean yes;

    /** The verb the messages use, such as "retry". */
    abstract String verb();

    /** Changes one dead letter; false when it was no longer one. */
    abstract boolean change(SimpleQueue<byte[]> queue, long id);

    @Override
    public void run() {
        boolean everything = all || olderThan != null;
        if (everything == !ids.isEmpty()) {
            throw new CommandLine.ParameterException(spec.commandLine(), everything
                    ? "give ids or --all/--older-than, not both" : "name the dead letters: their ids, --all, or "
                    + "--older-than DURATION");
        }
        ids.forEach(id -> Arguments.id(spec, id));
        List<Long> targets = new ArrayList<>();
        List<Long> unknown = new ArrayList<>();
        try (LocalQueueDatabase database = openToCheck();
             SimpleQueue<byte[]> jobs = Queues.existing(database, queue)) {
            if (everything) {
                targets.addAll(matching(jobs));
            } else {
                List<Long> asked = new ArrayList<>(new LinkedHashSet<>(ids.stream()
                        .map(id -> Arguments.id(spec, id)).toList()));
                Set<Long> dead = new HashSet<>();
                for (int from = 0; from < asked.size(); from += SimpleQueue.MAX_PAGE) {
                    for (StoredJob<byte[]> job : jobs.findJobs(asked.subList(from, Math.min(asked.size(),
                            from + SimpleQueue.MAX_PAGE)))) {
                        if (job.state() == JobState.FAILED) {
                            dead.add(job.id());
                        }
                    }
                }
                for (long id : asked) {
                    (dead.contains(id) ? targets : unknown).add(id);
                }
            }
        }
        List<Long> done = new ArrayList<>();
        if (!targets.isEmpty()) {
            String question = verb() + " " + targets.size() + " dead letter" + (targets.size() == 1 ? "" : "s")
                    + " of '" + queue + "'" + (olderThan == null ? "" : " that failed over "
                    + Arguments.words(olderThan) + " ago") + "?";
            if ((everything || targets.size() > 1) && !confirm(yes, question)) {
                throw new CliProblem("nothing changed: not confirmed");
            }
            try (LocalQueueDatabase database = openForWriting();
                 SimpleQueue<byte[]> jobs = Queues.open(database, queue)) {
                for (long id : targets) {
                    (change(jobs, id) ? done : unknown).add(id);
                }
            }
        }
        report(done, unknown);
    }

    private List<Long> matching(SimpleQueue<byte[]> jobs) {
        Instant cutoff = olderThan == null ? Instant.MAX : Instant.now().minus(olderThan);
        List<Long> found = new ArrayList<>();
        JobCursor after = null;
        while (true) {
            List<StoredJob<byte[]>> page = jobs.listJobs(JobState.FAILED, after, SimpleQueue.MAX_PAGE);
            for (StoredJob<byte[]> job : page) {
                if (job.updatedAt().isBefore(cutoff)) {
                    found.add(job.id());
                }
            }
            if (page.size() < SimpleQueue.MAX_PAGE) {
                return found;
            }
            after = page.get(page.size() - 1).cursor();
        }
    }

    private void report(List<Long> done, List<Long> unknown) {
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("queue", queue);
        document.put("action", verb());
        document.put("done", done);
        document.put("notDeadLetters", unknown);
        if (output.json) {
            output.print(out(), document);
        } else {
            out().println(verb() + ": " + done.size() + " dead letter" + (done.size() == 1 ? "" : "s") + " of '"
                    + queue + "'" + (done.isEmpty() ? "" : " " + shortList(done)));
            out().flush();
        }
        if (!unknown.isEmpty()) {
            throw new CliProblem("no dead letter of '" + queue + "' has the id" + (unknown.size() == 1 ? " " : "s ")
                    + shortList(unknown) + "; 'failed list --queue " + queue + "' lists them");
        }
    }

    /** Ids as a person reads them: the first ten, then how many more ({@code --json} lists all). */
    private static String shortList(List<Long> ids) {
        return ids.size() <= 10 ? ids.toString() : ids.subList(0, 10).toString().replace("]", ", … "
                + (ids.size() - 10) + " more]");
    }
}
