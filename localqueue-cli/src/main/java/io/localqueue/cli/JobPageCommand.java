package io.localqueue.cli;

import io.localqueue.JobCursor;
import io.localqueue.JobState;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.SimpleQueue;
import io.localqueue.StoredJob;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;

/**
 * One page of a queue's jobs in one state, in the order a claim takes them (ready and delayed) or by due time, with the
 * cursor the next page starts after and a count capped so it stays cheap: {@code jobs} and {@code failed list}.
 */
abstract class JobPageCommand extends TargetCommand {

    /** Counts stop here, so a count of a huge queue costs what this many rows cost. */
    static final long COUNT_CAP = 10_000;

    @Option(names = "--queue", required = true, paramLabel = "NAME", description = "The queue.")
    String queue;

    @Option(names = "--limit", paramLabel = "N", defaultValue = "50",
            description = "Jobs per page, 1 to " + SimpleQueue.MAX_PAGE + " (default: ${DEFAULT-VALUE}).")
    int limit;

    @Option(names = "--after", paramLabel = "CURSOR", description = "Continue after this cursor (the one a page "
            + "printed last).")
    @Nullable String after;

    /** The state the page lists. */
    abstract JobState state();

    @Override
    public void run() {
        JobState state = state();
        JobCursor cursor = Arguments.cursor(spec, after);
        Arguments.page(spec, limit);
        try (LocalQueueDatabase database = open(); SimpleQueue<byte[]> jobs = Queues.existing(database, queue)) {
            List<StoredJob<byte[]>> page = jobs.listJobs(state, cursor, limit);
            long total = jobs.countJobs(state, COUNT_CAP);
            String next = page.size() == limit ? page.get(page.size() - 1).cursor().toString() : null;
            Map<String, @Nullable Object> document = new LinkedHashMap<>();
            document.put("queue", queue);
            document.put("state", state.name().toLowerCase(java.util.Locale.ROOT));
            document.put("count", total);
            document.put("countCapped", total >= COUNT_CAP);
            document.put("jobs", page.stream().map(job -> Jobs.fields(job, false)).toList());
            document.put("next", next);
            output.print(out(), document, Jobs.HEADERS, page.stream().map(Jobs::row).toList());
            if (!output.json) {
                out().println(page.size() + " of " + (total >= COUNT_CAP ? Queues.count(COUNT_CAP) + "+"
                        : Queues.count(total)) + " " + document.get("state") + " jobs"
                        + (next == null ? "" : "; next page: --after " + next));
                out().flush();
            }
        }
    }
}
