package io.localqueue.spring.bus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.localqueue.bus.BusEvent;
import io.localqueue.bus.BusTopology;
import io.localqueue.bus.DispatchReceipt;
import io.localqueue.bus.EventBus;
import io.localqueue.spring.ContextRunnerTestBase;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;

/** The event bus bean, its properties, its lifecycle, and how each backs off. */
class EventBusAutoConfigurationTest extends ContextRunnerTestBase {

    @BusEvent(name = "user.created")
    record UserCreated(String userId) {
    }

    /** Registers a handler while the beans are created, as an application component would. */
    static final class Welcomer {
        final List<String> welcomed = new CopyOnWriteArrayList<>();

        Welcomer(EventBus bus) {
            bus.handler(UserCreated.class, (event, context) -> {
                welcomed.add(event.userId());
                return null;
            });
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class WelcomerConfiguration {
        @Bean
        Welcomer welcomer(EventBus bus) {
            return new Welcomer(bus);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnBus {
        @Bean(destroyMethod = "close")
        EventBus ownBus(io.localqueue.LocalQueueDatabase database) {
            return EventBus.builder(database).name("own").build();
        }
    }

    @Test
    void theBusIsOnTheQueueDatabaseAndItsHandlersRunOnceTheContextStarts() {
        onTempDir().withUserConfiguration(WelcomerConfiguration.class).run(context -> {
            EventBus bus = context.getBean(EventBus.class);
            assertThat(bus.name()).isEqualTo("default");
            assertThat(context).hasSingleBean(EventBusLifecycle.class);

            DispatchReceipt receipt = bus.dispatch(new UserCreated("u-1"));

            assertThat(receipt.subscriptions()).containsExactly("user.created");
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> context.getBean(Welcomer.class).welcomed.contains("u-1"));
            assertThat(bus.toString()).contains(dir.toString());
        });
    }

    @Test
    void propertiesNameTheBusRouteItsEventsAndSetItsSubscriptions() {
        onTempDir().withUserConfiguration(WelcomerConfiguration.class).withPropertyValues(
                "localqueue.bus.name=accounts", "localqueue.bus.topology.audit=*",
                "localqueue.bus.subscriptions[user.created].concurrency=3",
                "localqueue.bus.subscriptions.audit.handler-timeout=5s",
                "localqueue.bus.require-subscribers=false").run(context -> {
                    EventBus bus = context.getBean(EventBus.class);
                    assertThat(bus.name()).isEqualTo("accounts");
                    assertThat(bus.topology().routes()).containsKeys("audit", "user.created");
                    assertThat(bus.subscription("user.created").config().concurrency()).isEqualTo(3);
                    assertThat(bus.subscription("audit").config().handlerTimeout()).isEqualTo(Duration.ofSeconds(5));
                    assertThat(bus.dispatch(new UserCreated("u-2")).subscriptions())
                            .containsExactly("audit", "user.created");
                });
    }

    @Test
    void aSubscriptionsRetryPolicyComesFromItsProperties() {
        onTempDir().withUserConfiguration(WelcomerConfiguration.class).withPropertyValues(
                "localqueue.bus.topology.audit=*", "localqueue.bus.subscriptions[user.created].retry.type=fixed",
                "localqueue.bus.subscriptions[user.created].retry.max-attempts=5",
                "localqueue.bus.subscriptions[user.created].retry.delay=2s",
                "localqueue.bus.subscriptions.audit.retry.initial-delay=100ms",
                "localqueue.bus.subscriptions.audit.retry.multiplier=3",
                "localqueue.bus.subscriptions.audit.retry.jitter=false").run(context -> {
                    EventBus bus = context.getBean(EventBus.class);
                    assertThat(bus.subscription("user.created").config().retry())
                            .isEqualTo(io.localqueue.RetryPolicy.fixed(5, Duration.ofSeconds(2)));
                    io.localqueue.RetryPolicy audit = bus.subscription("audit").config().retry();
                    assertThat(audit.maxAttempts()).as("the delivery budget").isEqualTo(4);
                    assertThat(audit.delayAfter(2)).isEqualTo(Duration.ofMillis(300));
                });
        onTempDir().withUserConfiguration(WelcomerConfiguration.class).withPropertyValues(
                "localqueue.bus.subscriptions[user.created].retry.multiplier=1").run(context ->
                        assertThat(rootOf(context))
                                .hasMessageContaining("localqueue.bus.subscriptions.user.created.retry.multiplier "
                                        + "with value '1.0'")
                                .hasMessageContaining("multiplier"));
        onTempDir().withUserConfiguration(WelcomerConfiguration.class).withPropertyValues(
                "localqueue.bus.subscriptions[user.created].retry.delay=1s").run(context ->
                        assertThat(rootOf(context)).hasMessageContaining("type=fixed"));
        onTempDir().withUserConfiguration(WelcomerConfiguration.class).withPropertyValues(
                "localqueue.bus.subscriptions[user.created].retry.max-attempts=0").run(context ->
                        assertThat(rootOf(context)).hasMessageContaining(
                                "localqueue.bus.subscriptions.user.created.retry.max-attempts with value '0'"));
        onTempDir().withUserConfiguration(WelcomerConfiguration.class).withPropertyValues(
                "localqueue.bus.subscriptions[user.created].retry.initial-delay=2m").run(context ->
                        assertThat(rootOf(context)).as("the default max-delay is shorter").hasMessageContaining(
                                "localqueue.bus.subscriptions.user.created.retry.max-delay with value 'its default'"));
    }

    @Test
    void theBusHasADeliveryPolicyOfItsOwnThatSubscriptionsWithoutARetryPolicyTake() {
        onTempDir().withUserConfiguration(WelcomerConfiguration.class).withPropertyValues(
                "localqueue.delivery.max-retries=1", "localqueue.bus.delivery.lease=45s",
                "localqueue.bus.delivery.max-retries=6", "localqueue.bus.delivery.backoff.initial-delay=1s",
                "localqueue.bus.delivery.backoff.jitter=false", "localqueue.bus.topology.audit=*")
                .withInitializer(context -> context.getEnvironment().getPropertySources().addFirst(
                        new org.springframework.core.env.MapPropertySource("queue-override", java.util.Map.of(
                                "localqueue.queues.[__bus__:default:audit].delivery.max-retries", "2"))))
                .run(context -> {
                    EventBus bus = context.getBean(EventBus.class);
                    io.localqueue.RetryPolicy created = bus.subscription("user.created").config().retry();
                    assertThat(created.maxAttempts()).isEqualTo(7);
                    assertThat(created.delayAfter(1)).isEqualTo(Duration.ofSeconds(1));
                    assertThat(created.delayAfter(2)).isEqualTo(Duration.ofSeconds(2));
                    assertThat(bus.subscription("audit").config().retry().maxAttempts())
                            .as("its queue's own override").isEqualTo(3);
                    assertThat(bus.subscription("user.created").diagnostics().leaseSeconds()).isEqualTo(45.0);
                    assertThat(context.getBean(io.localqueue.DeliveryPolicy.class).maxRetries()).isEqualTo(1);
                });
        onTempDir().withPropertyValues("localqueue.bus.delivery.lease=0s").run(context ->
                assertThat(rootOf(context)).hasMessageContaining("localqueue.bus.delivery.lease"));
        onTempDir().withPropertyValues("localqueue.bus.delivery.backoff.multiplier=0.5").run(context ->
                assertThat(rootOf(context)).hasMessageContaining("localqueue.bus.delivery.backoff.multiplier"));
    }

    @Test
    void autoStartupFalseLeavesTheBusToTheApplication() {
        onTempDir().withUserConfiguration(WelcomerConfiguration.class)
                .withPropertyValues("localqueue.bus.auto-startup=false").run(context -> {
                    EventBus bus = context.getBean(EventBus.class);
                    bus.dispatch(new UserCreated("u-3"));
                    assertThat(context.getBean(EventBusLifecycle.class).isRunning()).isFalse();
                    assertThat(bus.isRunning()).isFalse();
                    assertThat(bus.subscription("user.created").stats().ready()).isEqualTo(1);
                    assertThat(bus.subscription("user.created").config().retry()).as("registered with its settings")
                            .isNotNull();

                    io.localqueue.bus.ExecutionResult imported = bus.execute(bus.source(
                            io.localqueue.bus.SequenceSource.of(List.of("u-4", "u-5"), "two-users"), "users",
                            UserCreated::new));

                    assertThat(imported.succeeded()).isTrue();
                    assertThat(context.getBean(Welcomer.class).welcomed).contains("u-4", "u-5");
                    assertThat(bus.isRunning()).as("stopped again after the call").isFalse();
                });
    }

    @Test
    void badValuesFailTheStartNamingTheProperty() {
        onTempDir().withPropertyValues("localqueue.bus.name=bad name").run(context ->
                assertThat(rootOf(context)).isInstanceOf(
                        InvalidConfigurationPropertyValueException.class).hasMessageContaining("localqueue.bus.name"));
        onTempDir().withPropertyValues("localqueue.bus.topology.audit=user.*").run(context ->
                assertThat(rootOf(context)).hasMessageContaining("localqueue.bus.topology"));
        onTempDir().withUserConfiguration(WelcomerConfiguration.class)
                .withPropertyValues("localqueue.bus.subscriptions[user.created].concurrency=0").run(context ->
                        assertThat(rootOf(context))
                                .hasMessageContaining("localqueue.bus.subscriptions.user.created.concurrency"));
        onTempDir().withUserConfiguration(WelcomerConfiguration.class)
                .withPropertyValues("localqueue.bus.subscriptions[user.created].prefetch=-1").run(context ->
                        assertThat(rootOf(context))
                                .hasMessageContaining("localqueue.bus.subscriptions.user.created.prefetch"));
        onTempDir().withPropertyValues("localqueue.bus.subscriptions.nobody.concurrency=2").run(context ->
                assertThat(rootOf(context))
                        .hasMessageContaining("localqueue.bus.subscriptions.nobody")
                        .hasMessageContaining("is not declared"));
    }

    @Test
    void anApplicationThatDoesNotUseTheBusKeepsItsFileAsItWas() {
        onTempDir().run(context -> {
            assertThat(context).hasSingleBean(EventBus.class);
            context.getBean(io.localqueue.spring.LocalQueueTemplate.class).put("emails", "hello");
        });
        try (java.sql.Connection connection = java.sql.DriverManager.getConnection("jdbc:sqlite:"
                + dir.resolve("localqueue.db"));
             java.sql.ResultSet tables = connection.createStatement().executeQuery(
                     "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")) {
            List<String> names = new java.util.ArrayList<>();
            while (tables.next()) {
                names.add(tables.getString(1));
            }
            assertThat(names).containsExactly("localqueue_turns", "message_headers", "messages", "queue_claims",
                    "queue_controls", "queue_priorities", "recurring_jobs", "recurring_ticks", "sqlite_sequence");
        } catch (java.sql.SQLException failure) {
            throw new AssertionError(failure);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnLifecycle {
        @Bean
        EventBusLifecycle ownLifecycle(EventBus bus) {
            return new EventBusLifecycle(bus, io.localqueue.spring.BusSettings.none(), null);
        }
    }

    @Test
    void anApplicationsOwnBusGetsTheLifecycleAndTheHandlers() {
        onTempDir().withUserConfiguration(OwnBus.class, WelcomerConfiguration.class).run(context -> {
            EventBus own = context.getBean(EventBus.class);
            assertThat(own.name()).isEqualTo("own");
            assertThat(context).hasSingleBean(EventBusLifecycle.class);
            assertThat(own.isRunning()).isTrue();
            own.dispatch(new UserCreated("u-9"));
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> context.getBean(Welcomer.class).welcomed.contains("u-9"));
        });
    }

    @Test
    void theLifecycleAndThePostProcessorBackOffToTheApplicationsOwn() {
        onTempDir().withUserConfiguration(OwnLifecycle.class).run(context -> {
            assertThat(context).hasSingleBean(EventBusLifecycle.class);
            assertThat(context).hasBean("ownLifecycle");
            assertThat(context.getBean(EventBus.class).isRunning()).isTrue();
        });
        onTempDir().withBean("ownProcessor", EventHandlerAnnotationBeanPostProcessor.class,
                EventHandlerAnnotationBeanPostProcessor::new).run(context -> {
                    assertThat(context).hasSingleBean(EventHandlerAnnotationBeanPostProcessor.class);
                    assertThat(context).hasBean("ownProcessor");
                });
    }

    @Test
    void theBusBacksOffToTheApplicationsAndCanBeTurnedOff() {
        onTempDir().withUserConfiguration(OwnBus.class).run(context -> {
            assertThat(context).hasSingleBean(EventBus.class);
            assertThat(context.getBean(EventBus.class).name()).isEqualTo("own");
        });
        onTempDir().withPropertyValues("localqueue.bus.enabled=false").run(context -> {
            assertThat(context).doesNotHaveBean(EventBus.class);
            assertThat(context).doesNotHaveBean(EventBusLifecycle.class);
        });
        assertThat(BusTopology.empty().subscriptionNames()).isEmpty();
    }

    private static Throwable rootOf(AssertableApplicationContext context) {
        return NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure());
    }
}
