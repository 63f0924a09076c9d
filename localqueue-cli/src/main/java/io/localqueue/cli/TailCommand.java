package io.localqueue.cli;

import io.localqueue.JobState;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.QueueStats;
import io.localqueue.SimpleQueue;
import io.localqueue.StoredJob;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code localqueue tail}: follows a queue until Ctrl-C (or {@code --for}): a line for each job put since it started,
 * and for each change of state of the jobs it follows (those it saw put, and those leased when it started) until they
 * are acknowledged, dead or deleted; with the queue's counts at the start and every tenth look when they moved.
 * Between looks it holds no connection, so it never stands in another process's way.
 */
@Command(name = "tail", mixinStandardHelpOptions = true,
        description = "Follows a queue until Ctrl-C: each job put, claimed, acknowledged, failed, retried or deleted, "
                + "and the counts now and then.")
final class TailCommand extends TargetCommand {

    /** The most jobs followed at once: the newest are kept. */
    static final int FOLLOWED = SimpleQueue.MAX_PAGE;

    /** A summary of the counts every this many looks, when they moved. */
    static final int SUMMARY_EVERY = 10;

    @Option(names = "--queue", required = true, paramLabel = "NAME", description = "The queue.")
    String queue;

    @Option(names = "--interval", paramLabel = "DURATION", defaultValue = "1s",
            converter = Arguments.DurationConverter.class,
            description = "How often to look (default: ${DEFAULT-VALUE}); a file of another layout is copied each "
                    + "time, so give it a longer one.")
    Duration interval;

    @Option(names = "--for", paramLabel = "DURATION", converter = Arguments.DurationConverter.class,
            description = "Stop after this long instead of at Ctrl-C.")
    @Nullable Duration duration;

    /** The state each followed job was last seen in, oldest first. */
    private final LinkedHashMap<Long, JobState> followed = new LinkedHashMap<>();
    /** Ids already printed as put above {@link #rereadFrom}: a look reads a little behind its bound. */
    private final Set<Long> seen = new HashSet<>();
    private long bound;
    private long rereadFrom;
    private @Nullable QueueStats counts;

    @Override
    public void run() {
        if (interval.toMillis() < 100) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--interval must be at least 100ms, "
                    + "got " + Arguments.words(interval));
        }
        @Nullable Instant end = duration == null ? null : Instant.now().plus(duration);
        start();
        for (int look = 1; end == null || Instant.now().isBefore(end); look++) {
            try {
                Thread.sleep(end == null ? interval.toMillis()
                        : Math.min(interval.toMillis(), Math.max(1, Duration.between(Instant.now(), end).toMillis())));
            } catch (InterruptedException stopped) {
                Thread.currentThread().interrupt();
                return;
            }
            look(look % SUMMARY_EVERY == 0);
        }
    }

    private void start() {
        try (LocalQueueDatabase database = open(); SimpleQueue<byte[]> jobs = Queues.named(database, queue, err())) {
            bound = database.lastJobId();
            rereadFrom = bound;
            for (StoredJob<byte[]> job : jobs.listJobs(JobState.LEASED, null, FOLLOWED)) {
                followed.put(job.id(), job.state());
            }
            counts = jobs.stats();
            summary(counts, true);
        }
    }

    /**
     * Reads the jobs put since the last look (from a little behind, since on a server a job committed late may carry
     * an id below a bound already read) and the followed jobs' states, printing what changed.
     */
    private void look(boolean summarize) {
        try (LocalQueueDatabase database = open(); SimpleQueue<byte[]> jobs = Queues.open(database, queue)) {
            long through = database.lastJobId();
            long from = rereadFrom;
            while (true) {
                List<StoredJob<byte[]>> page = jobs.listJobsPut(from, through, SimpleQueue.MAX_PAGE);
                for (StoredJob<byte[]> job : page) {
                    if (seen.add(job.id())) {
                        event("put", job);
                        follow(job.id(), job.state());
                    }
                }
                if (page.size() < SimpleQueue.MAX_PAGE) {
                    break;
                }
                from = page.get(page.size() - 1).id();
            }
            rereadFrom = bound;
            bound = Math.max(bound, through);
            seen.removeIf(id -> id <= rereadFrom);
            settle(jobs);
            if (summarize) {
                QueueStats now = jobs.stats();
                if (!now.equals(counts)) {
                    summary(now, false);
                    counts = now;
                }
            }
        }
    }

    private void settle(SimpleQueue<byte[]> jobs) {
        if (followed.isEmpty()) {
            return;
        }
        List<Long> ids = new ArrayList<>(followed.keySet());
        Map<Long, StoredJob<byte[]>> found = new LinkedHashMap<>();
        for (StoredJob<byte[]> job : jobs.findJobs(ids)) {
            found.put(job.id(), job);
        }
        for (long id : ids) {
            StoredJob<byte[]> job = found.get(id);
            if (job == null) {
                followed.remove(id);
                event("deleted", id, null);
                continue;
            }
            JobState was = followed.get(id);
            if (job.state() != was && !(waiting(was) && waiting(job.state()))) {
                event(switch (job.state()) {
                    case LEASED -> "leased";
                    case ACKED -> "acked";
                    case FAILED -> "failed";
                    default -> was == JobState.LEASED ? "retry" : "ready";
                }, job);
            }
            if (job.state() == JobState.ACKED || job.state() == JobState.FAILED) {
                followed.remove(id);
            } else {
                followed.put(id, job.state());
            }
        }
    }

    private static boolean waiting(JobState state) {
        return state == JobState.READY || state == JobState.DELAYED;
    }

    private void follow(long id, JobState state) {
        followed.put(id, state);
        if (followed.size() > FOLLOWED) {
            followed.remove(followed.keySet().iterator().next());
        }
    }

    private void event(String event, StoredJob<byte[]> job) {
        event(event, job.id(), job);
    }

    private void event(String event, long id, @Nullable StoredJob<byte[]> job) {
        Map<String, @Nullable Object> document = new LinkedHashMap<>();
        document.put("at", Instant.now().truncatedTo(ChronoUnit.MILLIS).toString());
        document.put("queue", queue);
        document.put("event", event);
        document.put("id", id);
        StringBuilder line = new StringBuilder(clock() + "  " + queue + "  #" + id + " " + event);
        if (job != null) {
            document.put("jobId", job.jobId());
            document.put("attempts", job.attempts());
            document.put("maxAttempts", job.maxAttempts());
            document.put("dueAt", Jobs.time(job.dueAt()));
            document.put("failureReason", job.failureReason() == null ? null : job.failureReason().value());
            document.put("lastError", job.lastError());
            switch (event) {
                case "put" -> line.append(job.jobId() == null ? "" : " (job id " + job.jobId() + ")")
                        .append(job.state() == JobState.DELAYED ? ", due " + Jobs.time(job.dueAt()) : "");
                case "leased" -> line.append(", delivery ").append(job.attempts()).append(" of ")
                        .append(job.maxAttempts());
                case "failed" -> line.append(": ").append(job.failureReason() == null ? "dead"
                        : job.failureReason().value()).append(job.lastError() == null ? "" : ": " + job.lastError());
                case "retry", "ready" -> line.append(job.state() == JobState.DELAYED ? ", due "
                        + Jobs.time(job.dueAt()) : "").append(job.lastError() == null ? "" : ": " + job.lastError());
                default -> { }
            }
        }
        output.printLine(out(), document, line.toString());
    }

    private void summary(QueueStats now, boolean first) {
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("at", Instant.now().truncatedTo(ChronoUnit.MILLIS).toString());
        document.put("queue", queue);
        document.put("event", "counts");
        document.put("ready", now.ready());
        document.put("leased", now.processing());
        document.put("acked", now.acked());
        document.put("dead", now.failed());
        output.printLine(out(), document, clock() + "  " + queue + "  " + (first ? "following (Ctrl-C stops): " : "")
                + "ready " + Queues.count(now.ready()) + ", leased " + Queues.count(now.processing()) + ", acked "
                + Queues.count(now.acked()) + ", dead " + Queues.count(now.failed()));
    }

    private static String clock() {
        return LocalTime.now(ZoneId.systemDefault()).truncatedTo(ChronoUnit.SECONDS).toString();
    }
}
