package io.localqueue.spring.recurring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.localqueue.LocalQueueDatabase;
import io.localqueue.RecurringJob;
import io.localqueue.RecurringJobs;
import io.localqueue.spring.ContextRunnerTestBase;
import io.localqueue.spring.Recurring;
import io.localqueue.spring.listener.InvalidHandlerMethodException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.context.PropertyPlaceholderAutoConfiguration;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;

/**
 * {@code @Recurring} methods: scheduled when the context starts, run by a listener with the tick, overridden by
 * {@code localqueue.recurring.<id>.*}, refused at start when their cron, zone or signature is wrong, and their stored
 * schedules disabled once their method is gone.
 */
@ExtendWith(OutputCaptureExtension.class)
class RecurringMethodsTest extends ContextRunnerTestBase {

    static final List<Instant> TICKS = new CopyOnWriteArrayList<>();
    static final AtomicInteger REPORTS = new AtomicInteger();
    static final AtomicInteger FLAKY = new AtomicInteger();

    @Configuration(proxyBeanMethods = false)
    static class EverySecond {

        @Bean
        Object everySecond() {
            return new Object() {
                @Recurring(id = "${ticker.id:ticker}", cron = "* * * * * *")
                void tick(Instant tick) {
                    TICKS.add(tick);
                }
            };
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Yearly {

        @Bean
        Object yearly() {
            return new Object() {
                @Recurring(id = "report", cron = "0 0 0 1 1 *", zone = "Europe/Paris")
                void report() {
                    REPORTS.incrementAndGet();
                }
            };
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class FailsOnce {

        @Bean
        Object failsOnce() {
            return new Object() {
                @Recurring(id = "flaky", cron = "0 0 0 1 1 *")
                void flaky() {
                    if (FLAKY.incrementAndGet() == 1) {
                        throw new IllegalStateException("the first run fails");
                    }
                }
            };
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class BadCron {

        @Bean
        Object badCron() {
            return new Object() {
                @Recurring(id = "bad", cron = "every day")
                void bad() {
                }
            };
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class UnsetPlaceholder {

        @Bean
        Object unset() {
            return new Object() {
                @Recurring(id = "${no.such.id}", cron = "@daily")
                void run() {
                }
            };
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class BadSignature {

        @Bean
        Object badSignature() {
            return new Object() {
                @Recurring(id = "bad", cron = "@daily")
                void bad(String what) {
                }
            };
        }
    }

    @Test
    void aMethodRunsOncePerTickWithTheTickAsAJobOfTheLibrarysQueue(CapturedOutput output) {
        TICKS.clear();
        onTempDir().withUserConfiguration(EverySecond.class).withPropertyValues("ticker.id=every-second")
                .run(context -> {
                    await().atMost(Duration.ofSeconds(10)).until(() -> TICKS.size() >= 2);
                    assertThat(TICKS).allSatisfy(tick -> assertThat(tick.getNano()).isZero()).doesNotHaveDuplicates();
                    RecurringJob stored = context.getBean(RecurringMethods.class).jobs().find("every-second");
                    assertThat(stored.queue()).isEqualTo(Recurring.DEFAULT_QUEUE);
                    assertThat(stored.isEnabled()).isTrue();
                    assertThat(stored.nextTick()).isNotNull();
                    assertThat(output).contains("no @QueueListener methods; 1 @Recurring method on queue "
                            + Recurring.DEFAULT_QUEUE);
                });
    }

    @Test
    void runNowRunsTheMethodOnceAndTheConfigurationOverridesTheAnnotation() {
        REPORTS.set(0);
        onTempDir().withUserConfiguration(Yearly.class)
                .withPropertyValues("localqueue.recurring.report.cron=0 30 1 * * MON-FRI",
                        "localqueue.recurring.report.zone=America/New_York",
                        "localqueue.recurring.report.enabled=false")
                .run(context -> {
                    RecurringJobs jobs = context.getBean(RecurringMethods.class).jobs();
                    RecurringJob report = jobs.find("report");
                    assertThat(report.cron()).isEqualTo("0 30 1 * * MON-FRI");
                    assertThat(report.zone()).isEqualTo(ZoneId.of("America/New_York"));
                    assertThat(report.isEnabled()).as("localqueue.recurring.report.enabled=false").isFalse();
                    assertThat(jobs.runNow("report")).isNotNull();
                    await().atMost(Duration.ofSeconds(10)).until(() -> REPORTS.get() == 1);
                });
        onTempDir().withUserConfiguration(Yearly.class).run(context ->
                assertThat(context.getBean(RecurringMethods.class).jobs().find("report").isEnabled())
                        .as("unset, the stored state stays").isFalse());
    }

    @Test
    void aFailedRunIsRetriedWithTheQueuesDeliverySettings() {
        FLAKY.set(0);
        onTempDir().withUserConfiguration(FailsOnce.class)
                .withPropertyValues("localqueue.queues.localqueue-recurring.delivery.backoff.initial-delay=0s")
                .run(context -> {
                    context.getBean(RecurringMethods.class).jobs().runNow("flaky");
                    await().atMost(Duration.ofSeconds(10)).until(() -> FLAKY.get() == 2);
                });
    }

    @Test
    void aStoredScheduleWhoseMethodIsGoneIsDisabledAndListedAsOrphaned() {
        onTempDir().withUserConfiguration(Yearly.class).run(context ->
                assertThat(context.getBean(RecurringMethods.class).orphans()).isEmpty());
        onTempDir().withUserConfiguration(FailsOnce.class).run(context -> {
            RecurringMethods methods = context.getBean(RecurringMethods.class);
            assertThat(methods.orphans()).containsExactly("report");
            assertThat(methods.jobs().find("report").isEnabled()).isFalse();
            assertThat(methods.jobs().find("flaky").isEnabled()).isTrue();
        });
        try (LocalQueueDatabase database = LocalQueueDatabase.open(dir);
             RecurringJobs jobs = RecurringJobs.on(database)) {
            assertThat(jobs.list()).extracting(RecurringJob::id).containsExactly("flaky", "report");
        }
    }

    @Test
    void configurationOfAnIdNoMethodHasFailsTheStartNamingTheProperty() {
        onTempDir().withUserConfiguration(Yearly.class).withPropertyValues("localqueue.recurring.reprot.cron=@daily")
                .run(context -> assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                        .isInstanceOfSatisfying(InvalidConfigurationPropertyValueException.class, refused -> {
                            assertThat(refused.getName()).isEqualTo("localqueue.recurring.reprot.cron");
                            assertThat(refused).hasMessageContaining("the ids are [report]");
                        }));
    }

    @Test
    void aBadCronOrZoneFailsTheStartNamingTheMethodOrTheProperty() {
        onTempDir().withUserConfiguration(BadCron.class).run(context ->
                assertThat(cause(context.getStartupFailure(), InvalidHandlerMethodException.class))
                        .hasMessageContaining("badCron.bad has an invalid cron:").hasMessageContaining("every day"));
        onTempDir().withUserConfiguration(Yearly.class)
                .withPropertyValues("localqueue.recurring.report.cron=61 * * * * *").run(context ->
                        assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                                .isInstanceOfSatisfying(InvalidConfigurationPropertyValueException.class,
                                        refused -> assertThat(refused.getName())
                                                .isEqualTo("localqueue.recurring.report.cron")));
        onTempDir().withUserConfiguration(Yearly.class)
                .withPropertyValues("localqueue.recurring.report.zone=Mars/Olympus").run(context ->
                        assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
                                .isInstanceOfSatisfying(InvalidConfigurationPropertyValueException.class,
                                        refused -> assertThat(refused.getName())
                                                .isEqualTo("localqueue.recurring.report.zone")));
        onTempDir().withConfiguration(AutoConfigurations.of(PropertyPlaceholderAutoConfiguration.class))
                .withUserConfiguration(UnsetPlaceholder.class).run(context -> assertThat(cause(context.getStartupFailure(), InvalidHandlerMethodException.class))
                        .hasMessageContaining("@Recurring method unset.run has a placeholder no property answers")
                        .hasMessageContaining("no.such.id"));
        onTempDir().withUserConfiguration(BadSignature.class).run(context ->
                assertThat(cause(context.getStartupFailure(), InvalidHandlerMethodException.class))
                        .hasMessageContaining("badSignature.bad")
                        .hasMessageContaining("must take nothing or the tick's java.time.Instant; it takes "
                                + "[class java.lang.String]"));
    }

    private static Throwable cause(Throwable failure, Class<? extends Throwable> type) {
        for (Throwable each = failure; each != null; each = each.getCause()) {
            if (type.isInstance(each)) {
                return each;
            }
        }
        throw new AssertionError("no " + type.getName() + " in " + failure);
    }
}
