package io.localqueue.spring.bus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.localqueue.FailureReason;
import io.localqueue.bus.BusEvent;
import io.localqueue.bus.EventBus;
import io.localqueue.bus.EventContext;
import io.localqueue.bus.FailedDelivery;
import io.localqueue.bus.RejectException;
import io.localqueue.bus.RetryException;
import io.localqueue.spring.ContextRunnerTestBase;
import io.localqueue.spring.EventHandler;
import io.localqueue.spring.listener.InvalidHandlerMethodException;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** {@code @EventHandler} methods: delivery, context, emission, retry, rejection, placeholders and bad shapes. */
@ExtendWith(OutputCaptureExtension.class)
class EventHandlerTest extends ContextRunnerTestBase {

    @BusEvent(name = "user.created")
    record UserCreated(String userId) {
    }

    @BusEvent(name = "user.welcomed")
    record UserWelcomed(String userId) {
    }

    @BusEvent(name = "user.flaky")
    record Flaky(String userId) {
    }

    /** Handlers of every shape the annotation allows. */
    static final class Handlers {
        final List<String> welcomed = new CopyOnWriteArrayList<>();
        final List<UUID> causes = new CopyOnWriteArrayList<>();
        final List<UUID> parents = new CopyOnWriteArrayList<>();
        final AtomicInteger flakyCalls = new AtomicInteger();

        @EventHandler(concurrency = "${welcome.workers:2}")
        UserWelcomed created(EventContext context, UserCreated event) {
            parents.add(context.eventId());
            return new UserWelcomed(event.userId());
        }

        @EventHandler(subscription = "${welcome.subscription}")
        void welcomed(UserWelcomed event, EventContext context) {
            causes.add(context.causationId());
            welcomed.add(event.userId());
        }

        @EventHandler(handlerTimeout = "10s")
        void flaky(Flaky event) {
            if (flakyCalls.incrementAndGet() == 1) {
                throw new RetryException("not yet", Duration.ZERO);
            }
            throw new RejectException("gave up", "flaky");
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class HandlerConfiguration {
        @Bean
        Handlers handlers() {
            return new Handlers();
        }
    }

    /** A method the annotation cannot run. */
    static final class TwoEvents {
        @EventHandler
        void both(UserCreated first, UserWelcomed second) {
        }
    }

    /** A concurrency that is no positive number. */
    static final class NoWorkers {
        @EventHandler(concurrency = "0")
        void none(UserCreated event) {
        }
    }

    /** Handlers on a subscription that consumes from the start. */
    static final class Early {
        final List<String> seen = new CopyOnWriteArrayList<>();

        @EventHandler(subscription = "shared")
        void created(UserCreated event) {
            seen.add("created " + event.userId());
        }
    }

    /** Handlers of a bean created only when first asked for, after the bus started. */
    static final class Late {
        final List<String> seen = new CopyOnWriteArrayList<>();

        @EventHandler(subscription = "late", concurrency = "2")
        void created(UserCreated event) {
            seen.add("late " + event.userId());
        }

        @EventHandler(subscription = "shared")
        void welcomed(UserWelcomed event) {
            seen.add("welcomed " + event.userId());
        }
    }

    /** A late handler that would change a consuming subscription's settings. */
    static final class LateResizer {
        @EventHandler(subscription = "shared", concurrency = "4")
        void flaky(Flaky event) {
        }
    }

    @Test
    void handlersReceiveTheirEventsEmitWithTheirAckAndFollowRetriesAndRejections() {
        onTempDir().withUserConfiguration(HandlerConfiguration.class)
                .withPropertyValues("welcome.subscription=welcomer").run(context -> {
                    EventBus bus = context.getBean(EventBus.class);
                    Handlers handlers = context.getBean(Handlers.class);

                    bus.dispatch(new UserCreated("u-1"));
                    bus.dispatch(new Flaky("u-2"));

                    await().atMost(Duration.ofSeconds(10)).until(() -> handlers.welcomed.contains("u-1"));
                    assertThat(handlers.causes).containsExactlyElementsOf(handlers.parents);
                    assertThat(bus.subscription("user.created").config().concurrency()).isEqualTo(2);
                    assertThat(bus.subscription("welcomer").config().frozen()).isTrue();
                    await().atMost(Duration.ofSeconds(10))
                            .until(() -> bus.subscription("user.flaky").listFailed().size() == 1);
                    FailedDelivery failed = bus.subscription("user.flaky").listFailed().get(0);
                    assertThat(failed.reason()).isEqualTo(FailureReason.REJECTED);
                    assertThat(failed.failureCategory()).isEqualTo("flaky");
                    assertThat(failed.attempts()).isEqualTo(2);
                    assertThat(bus.subscription("user.flaky").config().handlerTimeout())
                            .isEqualTo(Duration.ofSeconds(10));
                });
    }

    @Test
    void aPackagePrivateHandlerInTheApplicationsOwnPackageRuns() {
        onTempDir().withUserConfiguration(io.localqueue.spring.bus.elsewhere.ElsewhereHandlers.class).run(context -> {
            context.getBean(EventBus.class).dispatch(new io.localqueue.spring.bus.elsewhere.ElsewhereHandlers
                    .OrderPlaced("o-1"));

            await().atMost(Duration.ofSeconds(10))
                    .until(() -> io.localqueue.spring.bus.elsewhere.ElsewhereHandlers.HANDLED.contains("o-1"));
            assertThat(context.getBean(EventBus.class).subscription("order.placed").listFailed()).isEmpty();
        });
    }

    @Test
    void subscriptionsRetryWithTheDeliveryBackoffUnlessTheyHaveAPolicy() {
        onTempDir().withUserConfiguration(HandlerConfiguration.class).withPropertyValues(
                "welcome.subscription=welcomer", "localqueue.delivery.backoff.initial-delay=200ms",
                "localqueue.delivery.backoff.jitter=false", "localqueue.delivery.max-retries=2").run(context -> {
                    io.localqueue.RetryPolicy retry = context.getBean(EventBus.class).subscription("user.created")
                            .config().retry();
                    assertThat(retry).isNotNull();
                    assertThat(retry.maxAttempts()).isEqualTo(3);
                    assertThat(retry.delayAfter(1)).isEqualTo(Duration.ofMillis(200));
                    assertThat(retry.delayAfter(2)).isEqualTo(Duration.ofMillis(400));
                });
    }

    @Test
    void handlersOfALazyBeanStartTheirSubscriptionOrJoinAConsumingOne() {
        onTempDir().withBean(Early.class).withBean("late", Late.class, Late::new,
                definition -> definition.setLazyInit(true)).run(context -> {
                    EventBus bus = context.getBean(EventBus.class);
                    assertThat(bus.topology().hasSubscription("late")).isFalse();

                    Late late = context.getBean(Late.class);

                    assertThat(bus.subscription("late").consuming()).isTrue();
                    assertThat(bus.subscription("late").config().concurrency()).isEqualTo(2);
                    assertThat(bus.subscription("late").config().retry()).as("the queues' delivery policy")
                            .isNotNull();
                    bus.dispatch(new UserCreated("u-1"));
                    bus.dispatch(new UserWelcomed("u-2"));
                    await().atMost(Duration.ofSeconds(20)).until(() -> late.seen.size() == 2
                            && context.getBean(Early.class).seen.size() == 1);
                    assertThat(late.seen).containsExactlyInAnyOrder("late u-1", "welcomed u-2");
                    assertThat(context.getBean(Early.class).seen).containsExactly("created u-1");
                });
    }

    @Test
    void withAutoStartupOffHandlersAreRegisteredSoThatAnExecutionRunsThem() {
        onTempDir().withBean(Early.class).withPropertyValues("localqueue.bus.auto-startup=false",
                "localqueue.bus.subscriptions.shared.concurrency=3").run(context -> {
                    EventBus bus = context.getBean(EventBus.class);
                    assertThat(bus.isRunning()).isFalse();
                    assertThat(bus.subscription("shared").config().concurrency()).isEqualTo(3);

                    io.localqueue.bus.ExecutionResult result = bus.execute(bus.source(
                            io.localqueue.bus.SequenceSource.of(List.of("u-1", "u-2", "u-3"), "three"), "users",
                            UserCreated::new));

                    assertThat(result.succeeded()).isTrue();
                    assertThat(context.getBean(Early.class).seen)
                            .containsExactlyInAnyOrder("created u-1", "created u-2", "created u-3");
                });
    }

    @Test
    void aLazyHandlerThatWouldResizeAConsumingSubscriptionIsRefusedAndNotRegistered() {
        onTempDir().withBean(Early.class).withBean("resizer", LateResizer.class, LateResizer::new,
                definition -> definition.setLazyInit(true)).run(context -> {
                    assertThatThrownBy(() -> context.getBean(LateResizer.class)).rootCause()
                            .isInstanceOf(InvalidHandlerMethodException.class)
                            .hasMessageContaining("@EventHandler method resizer.flaky cannot be registered")
                            .hasMessageContaining("subscription 'shared' consumes already");
                    assertThat(context.getBean(EventBus.class).topology().routes("shared", "user.flaky")).isFalse();
                });
    }

    @Test
    void turningTheBusOffWarnsOfEveryHandlerItLeavesUncalled(CapturedOutput output) {
        onTempDir().withPropertyValues("localqueue.bus.enabled=false").withUserConfiguration(
                HandlerConfiguration.class).run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).doesNotHaveBean(EventBus.class);
                });
        assertThat(output).contains("Bean 'handlers' has @EventHandler methods [created, flaky, welcomed] that will "
                + "never be called: localqueue.bus.enabled is false");
    }

    @Test
    void aMethodTheAnnotationCannotRunFailsTheStartNamingIt() {
        onTempDir().withBean(TwoEvents.class).run(context -> assertThat(context).getFailure()
                .rootCause().hasMessageContaining("@EventHandler method")
                .hasMessageContaining("both").hasMessageContaining("must take the event"));
        onTempDir().withBean(NoWorkers.class).run(context -> assertThat(context).getFailure()
                .hasStackTraceContaining("@EventHandler method").hasStackTraceContaining("has concurrency '0'"));
    }
}
