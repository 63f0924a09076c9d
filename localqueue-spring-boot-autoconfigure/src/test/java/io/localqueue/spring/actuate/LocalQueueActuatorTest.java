package io.localqueue.spring.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;
import static org.awaitility.Awaitility.await;

import io.localqueue.DeliveryPolicy;
import io.localqueue.DurabilityMode;
import io.localqueue.EnqueueItem;
import io.localqueue.EnqueueOptions;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.QueueEmptyException;
import io.localqueue.QueueStats;
import io.localqueue.Serializer;
import io.localqueue.SimpleQueue;
import io.localqueue.spring.ContextRunnerTestBase;
import io.localqueue.spring.LocalQueueRegistry;
import io.localqueue.spring.LocalQueueTemplate;
import io.localqueue.spring.ObservedQueues;
import io.localqueue.spring.QueueListener;
import io.localqueue.spring.QueueSettings;
import io.localqueue.spring.Recurring;
import io.localqueue.spring.autoconfigure.LocalQueueAutoConfiguration;
import io.localqueue.spring.autoconfigure.LocalQueueEndpointAutoConfiguration;
import io.localqueue.spring.autoconfigure.LocalQueueHealthAutoConfiguration;
import io.localqueue.spring.autoconfigure.LocalQueueMetricsAutoConfiguration;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

class LocalQueueActuatorTest extends ContextRunnerTestBase {

    private static final Duration BOUND = Duration.ofSeconds(10);
    private static final String EXPOSE = "management.endpoints.web.exposure.include=localqueue";

    LocalQueueActuatorTest() {
        super(LocalQueueAutoConfiguration.class, LocalQueueEndpointAutoConfiguration.class,
                LocalQueueHealthAutoConfiguration.class, LocalQueueMetricsAutoConfiguration.class,
                MetricsAutoConfiguration.class);
    }

    // ---------------------------------------------------------------- endpoint

    @Test
    void endpointNotAutoConfiguredWhenNotExposed() {
        onTempDir().run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).doesNotHaveBean(LocalQueueEndpoint.class);
        });
    }

    @Test
    void endpointAutoConfiguredWhenExposed() {
        onTempDir().withPropertyValues(EXPOSE).run(context -> assertThat(context).hasSingleBean(LocalQueueEndpoint.class));
    }

    @Test
    void endpointIsReadOnlyUnlessAccessIsUnrestricted() {
        assertThat(LocalQueueEndpoint.class.getAnnotation(Endpoint.class).defaultAccess()).isEqualTo(Access.READ_ONLY);
        onTempDir().withPropertyValues(EXPOSE, "management.endpoint.localqueue.access=UNRESTRICTED")
                .run(context -> assertThat(context).hasSingleBean(LocalQueueEndpoint.class));
    }

    @Test
    void endpointNotAutoConfiguredWhenAccessIsNone() {
        onTempDir().withPropertyValues(EXPOSE, "management.endpoint.localqueue.access=NONE")
                .run(context -> assertThat(context).doesNotHaveBean(LocalQueueEndpoint.class));
    }

    @Test
    void endpointNotAutoConfiguredWithoutActuatorButTheCoreWorks() {
        onTempDir().withPropertyValues(EXPOSE).withClassLoader(new FilteredClassLoader(Endpoint.class))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).doesNotHaveBean(LocalQueueEndpoint.class);
                    LocalQueueTemplate template = context.getBean(LocalQueueTemplate.class);
                    template.put("plain", "still works");
                    assertThat(template.stats("plain")).isEqualTo(new QueueStats(1, 0, 0, 0));
                });
    }

    @Test
    void endpointReportsQueuesAndListeners() {
        onTempDir().withPropertyValues(EXPOSE, "localqueue.listener.auto-startup=false")
                .withBean("reports", ReportListener.class, ReportListener::new).run(context -> {
                    LocalQueueTemplate template = context.getBean(LocalQueueTemplate.class);
                    template.put("reports", "r1");
                    template.put("other", "o1");
                    LocalQueueEndpoint endpoint = context.getBean(LocalQueueEndpoint.class);

                    LocalQueueEndpoint.QueuesDescriptor all = endpoint.queues();
                    assertThat(all.queues()).containsOnlyKeys("other", "reports");
                    LocalQueueEndpoint.QueueDescriptor reports = all.queues().get("reports");
                    assertThat(reports.diagnostics().ready()).isEqualTo(1);
                    assertThat(reports.listeners()).containsExactly(
                            new LocalQueueEndpoint.ListenerDescriptor("reports.handle", false, false, 0));
                    assertThat(all.queues().get("other").listeners()).isEmpty();
                    assertThat(endpoint.queue("reports")).isNotNull();
                    assertThat(endpoint.queue("missing")).isNull();
                });
    }

    @Test
    void webExtensionGivesEachReplayOutcomeItsStatus() {
        onTempDir().withPropertyValues(EXPOSE, "management.endpoint.localqueue.access=UNRESTRICTED")
                .run(context -> {
                    LocalQueueEndpointWebExtension web = context.getBean(LocalQueueEndpointWebExtension.class);
                    SimpleQueue<Object> parked = context.getBean(LocalQueueRegistry.class).queue("parked");
                    long id = parked.put("poison");
                    parked.fail(parked.getNowait(), "operator test");

                    assertThat(web.retry("nope", id).getStatus()).isEqualTo(404);
                    assertThat(web.retry("nope", id).getBody().outcome())
                            .isEqualTo(LocalQueueEndpoint.RetryOutcome.UNKNOWN_QUEUE);
                    assertThat(web.retry("parked", id + 1).getStatus()).isEqualTo(404);
                    assertThat(web.retry("parked", id).getStatus()).isEqualTo(200);
                    assertThat(web.retry("parked", id).getStatus()).isEqualTo(404);
                    assertThat(context.getBean(LocalQueueRegistry.class).queueNames()).doesNotContain("nope");
                });
    }

    @Test
    void webExtensionNotAutoConfiguredWhenTheEndpointIsNotExposedOverHttp() {
        onTempDir().withPropertyValues("management.endpoints.jmx.exposure.include=localqueue")
                .run(context -> assertThat(context).doesNotHaveBean(LocalQueueEndpointWebExtension.class));
    }

    // ---------------------------------------------------------------- health

    @Test
    void healthIndicatorAutoConfigured() {
        onTempDir().run(context -> {
            assertThat(context).hasSingleBean(LocalQueueHealthIndicator.class);
            assertThat(context).hasBean("localqueueHealthIndicator");
        });
    }

    @Test
    void healthIndicatorNotAutoConfiguredWhenDisabled() {
        onTempDir().withPropertyValues("management.health.localqueue.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(LocalQueueHealthIndicator.class));
    }

    @Test
    void healthIndicatorNotAutoConfiguredWithoutHealthSupportButTheCoreWorks() {
        onTempDir().withClassLoader(new FilteredClassLoader(HealthIndicator.class)).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).doesNotHaveBean("localqueueHealthIndicator");
            assertThat(context.getBean(LocalQueueTemplate.class).put("plain", "x")).isPositive();
        });
    }

    @Test
    @SuppressWarnings("unchecked")
    void healthIsUpWithPerQueueDetails() {
        onTempDir().run(context -> {
            LocalQueueTemplate template = context.getBean(LocalQueueTemplate.class);
            template.put("alpha", "a1");
            template.put("alpha", "a2");
            template.put("beta", "b1");

            Health health = context.getBean(LocalQueueHealthIndicator.class).health(true);

            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).containsEntry("integrity", "ok");
            assertThat(health.getDetails().get("file")).isEqualTo(
                    context.getBean(LocalQueueDatabase.class).file().toString());
            Map<String, Object> queues = (Map<String, Object>) health.getDetails().get("queues");
            assertThat(queues).containsOnlyKeys("alpha", "beta");
            assertThat((Map<String, Object>) queues.get("alpha")).containsEntry("ready", 2L)
                    .containsEntry("processing", 0L).containsEntry("failed", 0L)
                    .containsKeys("expiredLeases", "oldestAvailableAgeSeconds");
            assertThat((Map<String, Object>) queues.get("beta")).containsEntry("ready", 1L);
        });
    }

    @Test
    @SuppressWarnings("unchecked")
    void healthIsDownWithTheFindingsWhenTheQuickCheckFailsOnAUserDatabase() throws Exception {
        Path damaged = databaseWithDamagedIndex();
        onTempDir().withBean("damagedDatabase", LocalQueueDatabase.class, () -> LocalQueueDatabase.open(damaged))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    Health health = context.getBean(LocalQueueHealthIndicator.class).health(true);

                    assertThat(health.getStatus()).isEqualTo(Status.DOWN);
                    assertThat(health.getDetails().get("integrity")).isInstanceOf(java.util.List.class);
                    assertThat((java.util.List<String>) health.getDetails().get("integrity")).isNotEmpty();
                    Map<String, Object> queues = (Map<String, Object>) health.getDetails().get("queues");
                    assertThat((Map<String, Object>) queues.get("precious")).containsEntry("ready", 300L);
                });
    }

    @Test
    @SuppressWarnings("unchecked")
    void indicatorOverADamagedCopyReportsDown() throws Exception {
        Path damaged = databaseWithDamagedIndex();
        try (LocalQueueDatabase database = LocalQueueDatabase.open(damaged)) {
            LocalQueueRegistry registry = new LocalQueueRegistry(database,
                    QueueSettings.of(DeliveryPolicy.defaults(), DurabilityMode.RELAXED));
            try {
                Health health = new LocalQueueHealthIndicator(
                        new ObservedQueues(registry, ObservedQueues.DEFAULT_MAX_AGE), Duration.ofMinutes(5),
                        Clock.systemUTC()).health(true);

                assertThat(health.getStatus()).isEqualTo(Status.DOWN);
                assertThat((java.util.List<String>) health.getDetails().get("integrity")).isNotEmpty();
            } finally {
                registry.destroy();
            }
        }
    }

    @Test
    void healthIsDownWhenTheFileCannotBeRead() throws Exception {
        Path damaged = databaseWithAllTablePagesDamaged();
        onTempDir().withBean("damagedDatabase", LocalQueueDatabase.class, () -> LocalQueueDatabase.open(damaged))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    Health health = context.getBean(LocalQueueHealthIndicator.class).health(true);
                    assertThat(health.getStatus()).isEqualTo(Status.DOWN);
                });
    }

    // ---------------------------------------------------------------- metrics

    @Test
    void metricsAutoConfiguredWithAMeterRegistry() {
        onTempDir().withBean(SimpleMeterRegistry.class, SimpleMeterRegistry::new)
                .run(context -> assertThat(context).hasSingleBean(LocalQueueMetrics.class));
    }

    @Test
    void metricsNotAutoConfiguredWithoutAMeterRegistryBean() {
        onTempDir().run(context -> assertThat(context).doesNotHaveBean(LocalQueueMetrics.class));
    }

    @Test
    void metricsNotAutoConfiguredWithoutMicrometerButTheCoreWorks() {
        onTempDir().withClassLoader(new FilteredClassLoader(MeterRegistry.class)).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).doesNotHaveBean("localQueueMetrics");
            assertThat(context.getBean(LocalQueueTemplate.class).put("plain", "x")).isPositive();
        });
    }

    @Test
    void metersCountProcessedJobsTimeHandlersAndGaugeQueueStates() {
        onTempDir().withBean(SimpleMeterRegistry.class, SimpleMeterRegistry::new)
                .withBean("metered", MeteredListener.class, MeteredListener::new).run(context -> {
                    LocalQueueTemplate template = context.getBean(LocalQueueTemplate.class);
                    template.putAll("metered", java.util.List.of("ok", "ok", "ok", "bad"));
                    await().atMost(BOUND).until(() -> template.stats("metered").equals(new QueueStats(0, 0, 3, 1)));
                    MeterRegistry meters = context.getBean(MeterRegistry.class);

                    await().atMost(BOUND).untilAsserted(() -> {
                        assertThat(meters.get("localqueue.jobs.processed").tag("queue", "metered")
                                .tag("outcome", "acked").counter().count()).isEqualTo(3.0);
                        assertThat(meters.get("localqueue.jobs.processed").tag("queue", "metered")
                                .tag("outcome", "dead_lettered").counter().count()).isEqualTo(1.0);
                    });
                    Timer acked = meters.get("localqueue.job.duration").tag("queue", "metered")
                            .tag("outcome", "acked").tag("listener", "metered.handle").timer();
                    assertThat(acked.count()).isEqualTo(3);
                    assertThat(meters.get("localqueue.job.duration").tag("queue", "metered")
                            .tag("outcome", "dead_lettered").timer().count()).isEqualTo(1);
                    Timer lateness = meters.get("localqueue.claim.lateness").tag("queue", "metered")
                            .tag("listener", "metered.handle").timer();
                    assertThat(lateness.count()).as("one per claimed job").isEqualTo(4);
                    assertThat(lateness.max(TimeUnit.MILLISECONDS)).isGreaterThanOrEqualTo(0);

                    await().atMost(BOUND).untilAsserted(() -> {
                        assertThat(gauge(meters, "metered", "acked").value()).isEqualTo(3.0);
                        assertThat(gauge(meters, "metered", "failed").value()).isEqualTo(1.0);
                        assertThat(gauge(meters, "metered", "ready").value()).isZero();
                        assertThat(gauge(meters, "metered", "processing").value()).isZero();
                    });
                });
    }

    @Test
    void everyDeadLetterIsCountedByReasonAPayloadTheListenerCannotReadIncluded() {
        onTempDir().withBean(SimpleMeterRegistry.class, SimpleMeterRegistry::new)
                .withBean("metered", MeteredListener.class, MeteredListener::new).run(context -> {
                    LocalQueueTemplate template = context.getBean(LocalQueueTemplate.class);
                    template.put("metered", "bad");
                    try (SimpleQueue<byte[]> raw = SimpleQueue.builder(context.getBean(LocalQueueDatabase.class),
                            Serializer.bytes()).name("metered").build()) {
                        raw.put("not json at all".getBytes(java.nio.charset.StandardCharsets.UTF_8));
                    }
                    MeterRegistry meters = context.getBean(MeterRegistry.class);

                    await().atMost(BOUND).ignoreExceptions().untilAsserted(() -> {
                        assertThat(meters.get("localqueue.dead-letters").tag("queue", "metered")
                                .tag("reason", "permanent_handler_error").counter().count()).isEqualTo(1.0);
                        assertThat(meters.get("localqueue.dead-letters").tag("queue", "metered")
                                .tag("reason", "invalid_payload").counter().count()).isEqualTo(1.0);
                        assertThat(meters.get("localqueue.jobs.processed").tag("queue", "metered")
                                .tag("outcome", "dead_lettered").counter().count()).isEqualTo(2.0);
                    });
                    assertThat(meters.get("localqueue.job.duration").tag("queue", "metered")
                            .tag("outcome", "dead_lettered").timer().count())
                            .as("only the handler that ran is timed").isEqualTo(1);
                });
    }

    @Test
    void anExpiredLeaseFoundByAListenerIsCounted() {
        try (SimpleQueue<Object> queue = SimpleQueue.builder(dir).name("metered")
                .delivery(new DeliveryPolicy(Duration.ofMillis(300), 3)).build()) {
            queue.put("ok");
            queue.getNowait(); // a delivery whose process died: its lease runs out
        }
        onTempDir().withBean(SimpleMeterRegistry.class, SimpleMeterRegistry::new)
                .withBean("metered", MeteredListener.class, MeteredListener::new).run(context -> {
                    LocalQueueTemplate template = context.getBean(LocalQueueTemplate.class);
                    await().atMost(BOUND).until(() -> template.stats("metered").equals(new QueueStats(0, 0, 1, 0)));
                    MeterRegistry meters = context.getBean(MeterRegistry.class);

                    assertThat(meters.get("localqueue.leases.expired").tag("queue", "metered")
                            .tag("listener", "metered.handle").tag("result", "ready").counter().count())
                            .isEqualTo(1.0);
                });
    }

    @Test
    void theLagGaugeSaysHowLongTheOldestDueJobHasWaited() {
        Clock anHourAgo = Clock.offset(Clock.systemUTC(), Duration.ofHours(-1));
        try (SimpleQueue<Object> queue = SimpleQueue.builder(dir).name("backlog").clock(anHourAgo).build()) {
            queue.put("waiting since an hour");
        }
        onTempDir().withPropertyValues("localqueue.actuator.max-age=50ms")
                .withBean(SimpleMeterRegistry.class, SimpleMeterRegistry::new).run(context -> {
            MeterRegistry meters = context.getBean(MeterRegistry.class);
            Gauge lag = meters.get("localqueue.jobs.oldest.age").tag("queue", "backlog").gauge();

            assertThat(lag.value()).isBetween(3_590.0, 3_700.0);
            assertThat(lag.getId().getBaseUnit()).isEqualTo("seconds");
            context.getBean(LocalQueueRegistry.class).queue("backlog").getNowait();
            await().atMost(BOUND).untilAsserted(() -> assertThat(lag.value()).isZero());
        });
    }

    @Test
    void theDelayedGaugeCountsTheJobsNotYetDue() {
        try (SimpleQueue<Object> queue = SimpleQueue.builder(dir).name("later").build()) {
            queue.put("now");
            queue.put("in an hour", null, EnqueueOptions.defaults().delay(Duration.ofHours(1)));
            queue.put("tomorrow", null, EnqueueOptions.defaults().delay(Duration.ofDays(1)).priority(-3));
        }
        onTempDir().withPropertyValues("localqueue.actuator.max-age=50ms")
                .withBean(SimpleMeterRegistry.class, SimpleMeterRegistry::new).run(context -> {
            MeterRegistry meters = context.getBean(MeterRegistry.class);
            Gauge delayed = meters.get("localqueue.jobs.delayed").tag("queue", "later").gauge();

            assertThat(delayed.value()).isEqualTo(2.0);
            assertThat(gauge(meters, "later", "ready").value()).as("every waiting job").isEqualTo(3.0);
        });
    }

    @Test
    void aFullKeyShowsInTheHeldGaugeAndTheClaimItRefusedInTheHeldClaimsCounter() {
        onTempDir().withPropertyValues("localqueue.actuator.max-age=50ms",
                        "localqueue.queues.exports.max-concurrent-per-key=1")
                .withBean(SimpleMeterRegistry.class, SimpleMeterRegistry::new).run(context -> {
            SimpleQueue<Object> exports = context.getBean(LocalQueueRegistry.class).queue("exports");
            exports.put("first", null, EnqueueOptions.defaults().concurrencyKey("acme"));
            exports.put("second", null, EnqueueOptions.defaults().concurrencyKey("acme"));
            exports.getNowait();
            assertThatThrownBy(exports::getNowait).isInstanceOf(QueueEmptyException.class);
            MeterRegistry meters = context.getBean(MeterRegistry.class);

            await().atMost(BOUND).untilAsserted(() ->
                    assertThat(meters.get("localqueue.jobs.held").tag("queue", "exports").gauge().value())
                            .isEqualTo(1.0));
            assertThat(meters.get("localqueue.claims.held").tag("queue", "exports")
                    .tag("limit", "max_concurrent_per_key").functionCounter().count()).isEqualTo(1.0);
            assertThat(meters.get("localqueue.claims.held").tag("queue", "exports").tag("limit", "rate_limit")
                    .functionCounter().count()).isZero();
        });
    }

    @Test
    void gaugesExistForQueuesThatAlreadyHoldJobsAtStartup() {
        try (SimpleQueue<Object> queue = SimpleQueue.builder(dir).name("backlog").build()) {
            queue.putMany(IntStream.range(0, 4).mapToObj(i -> EnqueueItem.<Object>of(i)).toList());
        }
        onTempDir().withBean(SimpleMeterRegistry.class, SimpleMeterRegistry::new).run(context -> {
            MeterRegistry meters = context.getBean(MeterRegistry.class);
            await().atMost(BOUND).untilAsserted(() ->
                    assertThat(gauge(meters, "backlog", "ready").value()).isEqualTo(4.0));
        });
    }

    // ---------------------------------------------------------------- support

    private static Gauge gauge(MeterRegistry meters, String queue, String state) {
        return meters.get("localqueue.jobs").tag("queue", queue).tag("state", state).gauge();
    }

    /** Writes a database with some jobs in {@code source} and copies its file to a new directory. */
    private Path copyOfADatabase() throws IOException {
        Path source = dir.resolve("source");
        try (SimpleQueue<Object> queue = SimpleQueue.builder(source).name("precious").build()) {
            String filler = "x".repeat(400);
            queue.putMany(IntStream.range(0, 300).mapToObj(i -> EnqueueItem.<Object>of(filler + i)).toList());
        }
        Path copy = Files.createDirectories(dir.resolve("damaged"));
        Files.copy(source.resolve(LocalQueueDatabase.FILE_NAME), copy.resolve(LocalQueueDatabase.FILE_NAME));
        return copy;
    }

    /** A copy whose unused job-id index has a junk root page: the tables still read, the quick check fails. */
    private Path databaseWithDamagedIndex() throws Exception {
        Path copy = copyOfADatabase();
        Path file = copy.resolve(LocalQueueDatabase.FILE_NAME);
        int rootPage;
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
             Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery(
                     "SELECT rootpage FROM sqlite_master WHERE name = 'idx_messages_job_id'")) {
            assertThat(row.next()).isTrue();
            rootPage = row.getInt(1);
        }
        junkPages(file, rootPage, rootPage);
        return copy;
    }

    /** A copy whose every page but the schema's (the first, and those its entries spill onto) is junk. */
    private Path databaseWithAllTablePagesDamaged() throws Exception {
        Path copy = copyOfADatabase();
        Path file = copy.resolve(LocalQueueDatabase.FILE_NAME);
        java.util.Set<Long> schemaPages = new java.util.HashSet<>();
        long pageCount;
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
             Statement statement = connection.createStatement()) {
            try (ResultSet rows = statement.executeQuery("SELECT pageno FROM dbstat WHERE name = 'sqlite_schema'")) {
                while (rows.next()) {
                    schemaPages.add(rows.getLong(1));
                }
            }
            try (ResultSet rows = statement.executeQuery("PRAGMA page_count")) {
                rows.next();
                pageCount = rows.getLong(1);
            }
        }
        for (long page = 2; page <= pageCount; page++) {
            if (!schemaPages.contains(page)) {
                junkPages(file, page, page);
            }
        }
        return copy;
    }

    private static void junkPages(Path file, long first, long last) throws IOException {
        try (RandomAccessFile raw = new RandomAccessFile(file.toFile(), "rw")) {
            raw.seek(16);
            int pageSize = raw.readUnsignedShort();
            pageSize = pageSize == 1 ? 65536 : pageSize;
            long pages = raw.length() / pageSize;
            assertThat(pages).isGreaterThan(10);
            byte[] junk = new byte[pageSize];
            Arrays.fill(junk, (byte) 0x5A);
            for (long page = first; page <= Math.min(last, pages); page++) {
                raw.seek((page - 1) * pageSize);
                raw.write(junk);
            }
        }
    }

    static class ReportListener {
        @QueueListener(queue = "reports")
        void handle(String report) {
        }
    }

    static class MeteredListener {
        @QueueListener(queue = "metered", permanentErrors = IllegalArgumentException.class)
        void handle(String value) {
            if (value.equals("bad")) {
                throw new IllegalArgumentException("bad value");
            }
        }
    }

    @Test
    void anOrphanedRecurringJobIsListedAsSuchNotRunByHandAndCanBeDeleted() {
        onTempDir().withPropertyValues(EXPOSE).withUserConfiguration(Daily.class)
                .run(context -> assertThat(context).hasNotFailed());
        onTempDir().withPropertyValues(EXPOSE).withUserConfiguration(Hourly.class).run(context -> {
            LocalQueueEndpoint endpoint = context.getBean(LocalQueueEndpoint.class);
            assertThat(endpoint.queues().recurring()).extracting(RecurringActions.RecurringDescriptor::id,
                    RecurringActions.RecurringDescriptor::orphaned).containsExactly(
                    tuple("daily", true),
                    tuple("hourly", false));
            RecurringActions.ActionDescriptor refused = (RecurringActions.ActionDescriptor) endpoint
                    .actOnSubscription(LocalQueueEndpoint.RECURRING, "daily", RecurringActions.RUN_NOW, null);
            assertThat(refused.affected()).isZero();
            assertThat(refused.message()).startsWith("not run: no @Recurring method");
            RecurringActions.ActionDescriptor notEnabled = (RecurringActions.ActionDescriptor) endpoint
                    .actOnSubscription(LocalQueueEndpoint.RECURRING, "daily", RecurringActions.ENABLE, null);
            assertThat(notEnabled.affected()).isZero();
            assertThat(notEnabled.message()).startsWith("not enabled: no @Recurring method");
            RecurringActions.ActionDescriptor deleted = (RecurringActions.ActionDescriptor) endpoint
                    .actOnSubscription(LocalQueueEndpoint.RECURRING, "daily", RecurringActions.DELETE, null);
            assertThat(deleted.affected()).isEqualTo(1);
            assertThat(endpoint.queues().recurring()).extracting(RecurringActions.RecurringDescriptor::id)
                    .containsExactly("hourly");
        });
    }

    @Configuration(proxyBeanMethods = false)
    static class Daily {
        @Bean
        Object daily() {
            return new Object() {
                @Recurring(id = "daily", cron = "@daily")
                void run() {
                }
            };
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Hourly {
        @Bean
        Object hourly() {
            return new Object() {
                @Recurring(id = "hourly", cron = "@hourly")
                void run() {
                }
            };
        }
    }
}
