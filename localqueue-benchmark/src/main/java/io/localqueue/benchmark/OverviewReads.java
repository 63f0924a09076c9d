package io.localqueue.benchmark;

import java.math.BigDecimal;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * The dashboard's overview over HTTP: one client asking back to back (the overview every page shares), one asking just
 * after each rebuild is due, and ten clients asking at once, whose answers show how many overviews were built and how
 * many counts of the queue they came from.
 */
final class OverviewReads {

    /** The overview's route. */
    static final String PATH = "/localqueue/api/overview";

    /** How often the dashboard rebuilds its shared overview at most. */
    static final Duration MAX_AGE = Duration.ofSeconds(1);

    /** How many pages poll at once. */
    static final int PAGES = 10;

    private static final int REBUILT_SAMPLES = 10;
    private static final Duration REBUILT_SPACING = MAX_AGE.plusMillis(100);
    private static final String GENERATED_AT = "\"generatedAt\":";

    private final RunContext context;
    private final DashboardClient client;
    private final DashboardBacklog backlog;

    OverviewReads(RunContext context, DashboardClient client, DashboardBacklog backlog) {
        this.context = context;
        this.client = client;
        this.backlog = backlog;
    }

    /**
     * Times the overview asked back to back by one client, after the warm-up.
     *
     * @param row the result's name
     * @return the result, with how many overviews the measured calls were served
     * @throws Exception when a request cannot be sent
     */
    ScenarioResult shared(String row) throws Exception {
        Map<String, Integer> lastCall = new HashMap<>();
        ScenarioResult result = client.measure(context, row, PATH, context.profile().backlogOperations(),
                "one GET " + PATH + ": the overview every open page shares, rebuilt at most once a second",
                (body, call) -> lastCall.put(generatedAt(body), call), this::check);
        int calls = lastCall.values().stream().mapToInt(Integer::intValue).max().orElse(-1) + 1;
        long firstMeasured = calls - result.operations();
        return result.withDetail("overviewBuilds", lastCall.values().stream().filter(call -> call >= firstMeasured)
                .count());
    }

    /**
     * Times the overview asked {@link #REBUILT_SPACING} after the previous call, so that every call rebuilds it.
     *
     * @param row the result's name
     * @return the result
     * @throws Exception when a request cannot be sent or is refused
     */
    ScenarioResult rebuilt(String row) throws Exception {
        context.progress(row);
        HttpRequest request = client.request(PATH);
        Instant previous = instant(generatedAt(client.send(request)));
        long[] samples = new long[REBUILT_SAMPLES];
        long budgetEnd = System.nanoTime() + context.profile().measureTime().toNanos();
        int count = 0;
        int rebuilt = 0;
        String last = "";
        while (count < samples.length && (count == 0 || System.nanoTime() - budgetEnd < 0)) {
            Thread.sleep(REBUILT_SPACING.toMillis());
            long start = System.nanoTime();
            String body = client.send(request);
            samples[count++] = System.nanoTime() - start;
            Instant built = instant(generatedAt(body));
            rebuilt += built.isAfter(previous) ? 1 : 0;
            previous = built;
            last = body;
        }
        return ScenarioResult.builder(row, DashboardScenario.GROUP, null)
                .count(count, "calls")
                .requested(samples.length)
                .latency(Arrays.copyOf(samples, count), "one GET " + PATH + " " + REBUILT_SPACING.toMillis()
                        + " ms after the previous one, so that it is rebuilt from the cached snapshots")
                .validation(Validation.check(rebuilt == count, rebuilt + " of " + count + " calls rebuilt the overview")
                        .and(check(DashboardClient.json(last))))
                .build();
    }

    /**
     * Has {@link #PAGES} clients ask for the overview back to back at once, each up to the backlog's operations or the
     * time budget, and counts the overviews built and the counts of the queue they show.
     *
     * @param row the result's name
     * @return the result
     * @throws Exception when a client fails
     */
    ScenarioResult tenPages(String row) throws Exception {
        context.progress(row);
        Profile profile = context.profile();
        int calls = profile.backlogOperations();
        HttpRequest request = client.request(PATH);
        Map<String, String> builds = new ConcurrentHashMap<>();
        AtomicReference<String> failure = new AtomicReference<>();
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(PAGES);
        List<OperationLoop.Timing> timings = new ArrayList<>();
        long window;
        try {
            List<Future<OperationLoop.Timing>> pages = new ArrayList<>();
            for (int page = 0; page < PAGES; page++) {
                pages.add(pool.submit(() -> {
                    go.await();
                    return OperationLoop.run(new OperationLoop.Limits(0, Duration.ZERO, calls, profile.measureTime()),
                            i -> {
                                try {
                                    String body = client.send(request);
                                    String built = generatedAt(body);
                                    if (!builds.containsKey(built)) {
                                        builds.putIfAbsent(built, body);
                                    }
                                } catch (IllegalStateException refused) {
                                    failure.compareAndSet(null, refused.getMessage());
                                }
                            });
                }));
            }
            long start = System.nanoTime();
            go.countDown();
            for (Future<OperationLoop.Timing> page : pages) {
                timings.add(page.get());
            }
            window = System.nanoTime() - start;
        } finally {
            pool.shutdownNow();
        }
        long[] samples = timings.stream().flatMapToLong(timing -> Arrays.stream(timing.latencies())).toArray();
        List<Instant> built = builds.keySet().stream().map(OverviewReads::instant).sorted().toList();
        return ScenarioResult.builder(row, DashboardScenario.GROUP, null)
                .throughput(samples.length, "calls", window)
                .requested((long) calls * PAGES)
                .latency(samples, "one GET " + PATH + " by one of " + PAGES + " clients asking back to back at once")
                .validation(failure.get() != null ? Validation.failed(failure.get())
                        : apart(built).and(check(DashboardClient.json(builds.values().iterator().next()))))
                .detail("pollingClients", PAGES)
                .detail("callsPerSecond", ScenarioResult.perSecond(samples.length, window))
                .detail("overviewBuilds", built.size())
                .detail("callsPerOverviewBuild", samples.length / Math.max(1, built.size()))
                .detail("queueCountsSeen", countsSeen(builds.values()))
                .build();
    }

    /** Passes when every two overviews served were built more than {@link #MAX_AGE} apart. */
    private static Validation apart(List<Instant> built) {
        for (int i = 1; i < built.size(); i++) {
            if (!built.get(i - 1).plus(MAX_AGE).isBefore(built.get(i))) {
                return Validation.failed("overviews built at " + built.get(i - 1) + " and " + built.get(i));
            }
        }
        return Validation.passed("overviews built: " + built.size() + ", each more than " + MAX_AGE.toMillis()
                + " ms after the previous one");
    }

    /**
     * Counts the distinct snapshots of the queue that overviews showed: each is one count of the queue, made in the
     * background when a read finds the last one too old; they are seconds apart, and an overview gives their time to
     * the millisecond.
     */
    private int countsSeen(Iterable<String> overviews) {
        List<Long> observed = new ArrayList<>();
        for (String body : overviews) {
            JsonNode overview = DashboardClient.json(body);
            JsonNode queue = queue(overview);
            if (queue != null) {
                observed.add(instant(generatedAt(body)).toEpochMilli()
                        - Math.round(queue.get("observedAgeSeconds").asDouble() * 1000));
            }
        }
        observed.sort(null);
        int counts = 0;
        for (int i = 0; i < observed.size(); i++) {
            counts += i == 0 || observed.get(i) - observed.get(i - 1) > MAX_AGE.toMillis() ? 1 : 0;
        }
        return counts;
    }

    /**
     * Checks that an overview shows the queue as it was built; nothing changes it while the scenario reads.
     *
     * @param overview the overview's JSON
     * @return the validation
     */
    Validation check(JsonNode overview) {
        JsonNode queue = queue(overview);
        if (queue == null) {
            return Validation.failed("the overview has no queue '" + DashboardScenario.QUEUE + "'");
        }
        long ready = queue.get("ready").asLong();
        long delayed = queue.get("delayed").asLong();
        long leased = queue.get("leased").asLong();
        long dead = queue.get("dead").asLong();
        return Validation.check(ready == backlog.ready() && delayed == backlog.delayed() && leased == backlog.leased()
                        && dead == backlog.deadLetters(), "the overview showed " + ready + " ready, " + delayed
                        + " delayed, " + leased + " leased and " + dead + " dead jobs");
    }

    private static @Nullable JsonNode queue(JsonNode overview) {
        for (JsonNode queue : overview.get("queues")) {
            if (queue.get("name").asString().equals(DashboardScenario.QUEUE)) {
                return queue;
            }
        }
        return null;
    }

    /** The text of an overview's {@code generatedAt}, found without parsing the body. */
    static String generatedAt(String body) {
        int at = body.indexOf(GENERATED_AT);
        if (at < 0) {
            throw new IllegalStateException("an overview without generatedAt");
        }
        int from = at + GENERATED_AT.length();
        int to = body.charAt(from) == '"' ? body.indexOf('"', from + 1) + 1 : body.indexOf(',', from);
        return body.substring(from, to);
    }

    /** Reads a {@code generatedAt} text: an ISO-8601 string, or seconds since the epoch. */
    static Instant instant(String text) {
        if (text.startsWith("\"")) {
            return Instant.parse(text.substring(1, text.length() - 1));
        }
        BigDecimal seconds = new BigDecimal(text);
        return Instant.ofEpochSecond(seconds.longValue(),
                seconds.remainder(BigDecimal.ONE).movePointRight(9).longValue());
    }
}
