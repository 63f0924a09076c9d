package io.localqueue.benchmark;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * {@code dashboard-N}: the dashboard's JSON reads over HTTP, call by call, from a real Spring Boot web application on a
 * queue of the large backlog's size of ready jobs, with a hundredth as many dead letters and a few leased and delayed
 * jobs: the shared overview, the overview when it is rebuilt, the first page of ready jobs and a page 90 % into them,
 * the first page of dead letters, one job, and ten clients polling the overview at once. Nothing writes while it
 * measures, so every answer is checked against what was built. Not compared with a raw limit; it runs once, outside
 * the durability modes (reads do not depend on them).
 */
public final class DashboardScenario implements Scenario {

    /** The report section. */
    public static final String GROUP = "dashboard";

    /** The queue the pages read. */
    static final String QUEUE = "dashboard";

    /** Jobs per page, the dashboard's default page size. */
    private static final int PAGE = 50;

    /** The most jobs a count steps through, the dashboard's default count cap. */
    private static final long COUNT_CAP = 10_000;

    private static final String JOBS = "/localqueue/api/jobs?queue=" + QUEUE + "&limit=" + PAGE + "&state=";

    @Override
    public String name() {
        return "dashboard";
    }

    @Override
    public List<ScenarioResult> run(RunContext context) throws Exception {
        Profile profile = context.profile();
        String name = name() + "-" + Format.compact(profile.backlogRows());
        Path directory = context.newDirectory(name);
        context.progress(name + ": building " + profile.backlogRows() + " ready rows and their dead letters");
        DashboardBacklog backlog = DashboardBacklog.build(directory, QUEUE, profile.backlogRows());
        context.progress(name + ": starting the web application");
        List<ScenarioResult> results = new ArrayList<>();
        try (DashboardApp app = DashboardApp.start(directory, "localqueue.dashboard.page-size=" + PAGE,
                "localqueue.dashboard.count-cap=" + COUNT_CAP)) {
            DashboardClient client = new DashboardClient(app);
            OverviewReads overview = new OverviewReads(context, client, backlog);
            results.add(overview.shared(name + "-overview")
                    .withDetail("buildSeconds", Math.round(backlog.buildNanos() / 1e7) / 100.0));
            results.add(overview.rebuilt(name + "-overview-rebuilt"));
            results.addAll(jobReads(context, client, backlog, name));
            results.add(overview.tenPages(name + "-overview-10-pages"));
        }
        List<ScenarioResult> described = new ArrayList<>(results.size());
        for (ScenarioResult result : results) {
            described.add(result.withDetail("readyJobs", backlog.ready())
                    .withDetail("deadLetters", backlog.deadLetters())
                    .withDetail("leasedJobs", backlog.leased())
                    .withDetail("delayedJobs", backlog.delayed()));
        }
        return described;
    }

    /** Times the pages of ready jobs (the first and the deep one), the first page of dead letters and one job. */
    private static List<ScenarioResult> jobReads(RunContext context, DashboardClient client, DashboardBacklog backlog,
                                                 String name) throws Exception {
        int calls = context.profile().backlogOperations();
        ScenarioResult first = client.measure(context, name + "-ready-first-page", JOBS + "ready", calls,
                "one GET /localqueue/api/jobs?state=ready&limit=" + PAGE + ": the first keyset page and the count "
                        + "stopped at " + Format.grouped(COUNT_CAP),
                page -> page(page, backlog.ready(), backlog.firstReadyId()));
        ScenarioResult deep = client.measure(context, name + "-ready-deep-page",
                JOBS + "ready&after=" + backlog.deepCursor(), calls,
                "the same after the cursor of the " + Format.grouped(backlog.deepPosition()) + "th ready job",
                page -> page(page, backlog.ready(), backlog.deepFirstId()));
        ScenarioResult dead = client.measure(context, name + "-dead-page", JOBS + "failed", calls,
                "one GET /localqueue/api/jobs?state=failed&limit=" + PAGE + ": the first page of dead letters and "
                        + "their count", page -> page(page, backlog.deadLetters(), backlog.firstDeadId()));
        ScenarioResult job = client.measure(context, name + "-job",
                "/localqueue/api/job?queue=" + QUEUE + "&id=" + backlog.deepFirstId(), calls,
                "one GET /localqueue/api/job: one job by id with its headers, its payload through the redaction",
                detail -> Validation.check(detail.get("id").asLong() == backlog.deepFirstId()
                        && detail.get("state").asString().equals("ready"), "job " + detail.get("id").asLong()
                        + ", " + detail.get("state").asString()));
        return List.of(first, deep.withDetail("deepPagePosition", backlog.deepPosition())
                .withDetail("ratioToFirstPage", ratio(deep, first)), dead, job);
    }

    /**
     * Checks a page of jobs: a full page (or all of a smaller state) starting with the expected job, the count stopped
     * at the cap (and marked capped only when the state holds more), and a cursor for the next page when the page is
     * full.
     */
    private static Validation page(JsonNode page, long inState, long firstId) {
        JsonNode jobs = page.get("jobs");
        long count = page.get("count").asLong();
        boolean capped = page.get("capped").asBoolean();
        long expectedCount = Math.min(inState, COUNT_CAP);
        boolean full = jobs.size() == Math.min(PAGE, inState);
        boolean starts = !jobs.isEmpty() && jobs.get(0).get("id").asLong() == firstId;
        boolean next = page.path("next").isString();
        return Validation.check(full && starts && next == (inState >= PAGE) && count == expectedCount
                        && capped == (inState > COUNT_CAP), jobs.size() + " jobs from "
                        + (jobs.isEmpty() ? "none" : jobs.get(0).get("id").asLong()) + ", count " + count
                        + (capped ? "+" : "") + " of " + inState + (next ? ", a next cursor" : ", no next cursor"));
    }

    private static double ratio(ScenarioResult result, ScenarioResult reference) {
        Percentiles measured = result.latency();
        Percentiles base = reference.latency();
        return measured == null || base == null || base.p50() == 0 ? 0 : (double) measured.p50() / base.p50();
    }
}
