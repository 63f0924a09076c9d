package io.localqueue.spring.observation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.localqueue.bus.BusEvent;
import io.localqueue.bus.EventBus;
import io.localqueue.bus.EventContext;
import io.localqueue.bus.NoSubscribersException;
import io.localqueue.bus.RetryException;
import io.localqueue.spring.ContextRunnerTestBase;
import io.localqueue.spring.EventHandler;
import io.localqueue.spring.autoconfigure.LocalQueueAutoConfiguration;
import io.localqueue.spring.autoconfigure.LocalQueueObservationAutoConfiguration;
import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The observations of the event bus with a test registry: off unless enabled, one per dispatch (never of a handler's
 * events) and one per delivery an {@code @EventHandler} method handles, named and tagged by the conventions (bus,
 * subscription, event type, handler, outcome; never a payload), in scope while the method runs, replaceable by a
 * convention bean.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class EventBusObservationTest extends ContextRunnerTestBase {

    private static final Duration BOUND = Duration.ofSeconds(10);
    private static final String DISPATCH = "localqueue.bus.dispatch";
    private static final String HANDLER = "localqueue.bus.handler";

    private final TestObservationRegistry registry = TestObservationRegistry.create();

    @BusEvent(name = "user.created")
    record UserCreated(String userId) {
    }

    @BusEvent(name = "user.welcomed")
    record UserWelcomed(String userId) {
    }

    @BusEvent(name = "user.ignored")
    record UserIgnored(String userId) {
    }

    EventBusObservationTest() {
        super(LocalQueueAutoConfiguration.class, LocalQueueObservationAutoConfiguration.class);
    }

    private ApplicationContextRunner observed(String... properties) {
        return onTempDir().withBean(ObservationRegistry.class, () -> registry).withPropertyValues(properties)
                .withPropertyValues("localqueue.bus.delivery.backoff.initial-delay=0s")
                .withBean("welcomer", Welcomer.class, () -> new Welcomer(registry));
    }

    @Test
    void nothingIsObservedUnlessEnabled() {
        observed().run(context -> {
            context.getBean(EventBus.class).dispatch(new UserCreated("u-1"));

            Welcomer welcomer = context.getBean(Welcomer.class);
            await().atMost(BOUND).until(() -> welcomer.welcomed.size() == 2);
            assertThat(context).doesNotHaveBean(ObservingDispatchInterceptor.class)
                    .doesNotHaveBean(ObservingEventHandlerDecorator.class);
            assertThat(welcomer.observations).containsOnly((Observation) null);
            assertThat(welcomer.welcomed.get(0).headers()).isEmpty();
            assertThat(registry).doesNotHaveAnyObservation();
        });
    }

    @Test
    void eachDispatchIsObservedWithItsBusEventTypeAndOutcome() {
        observed("localqueue.bus.observation-enabled=true").run(context -> {
            EventBus bus = context.getBean(EventBus.class);
            bus.dispatchAll(List.of(new UserCreated("u-1"), new UserCreated("u-2")));
            assertThatThrownBy(() -> bus.dispatch(new UserIgnored("u-3"))).isInstanceOf(NoSubscribersException.class);

            assertThat(registry).hasNumberOfObservationsWithNameEqualTo(DISPATCH, 2)
                    .hasAnObservation(observation -> observation.hasNameEqualTo(DISPATCH)
                            .hasContextualNameEqualTo("send user.created")
                            .hasLowCardinalityKeyValue("bus", "default")
                            .hasLowCardinalityKeyValue("event", "user.created")
                            .hasLowCardinalityKeyValue("outcome", "success")
                            .hasHighCardinalityKeyValue("event.count", "2")
                            .doesNotHaveError())
                    .hasAnObservation(observation -> observation.hasNameEqualTo(DISPATCH)
                            .hasLowCardinalityKeyValue("event", "user.ignored")
                            .hasLowCardinalityKeyValue("outcome", "failure")
                            .assertThatError().isInstanceOf(NoSubscribersException.class));
        });
    }

    @Test
    void aDispatchOfSeveralTypesIsNamedAfterItsBus() {
        observed("localqueue.bus.observation-enabled=true", "localqueue.bus.topology.audit=*").run(context -> {
            EventBus bus = context.getBean(EventBus.class);
            bus.register(UserIgnored.class);
            bus.dispatchAll(List.of(new UserCreated("u-1"), new UserIgnored("u-2")));

            assertThat(registry).hasAnObservation(observation -> observation.hasNameEqualTo(DISPATCH)
                    .hasContextualNameEqualTo("send default")
                    .hasLowCardinalityKeyValue("event", EventSenderContext.MIXED_EVENT_TYPES));
        });
    }

    @Test
    void eachHandledDeliveryIsObservedInScopeWhileTheMethodRunsAndARetryAgain() {
        observed("localqueue.bus.observation-enabled=true").run(context -> {
            context.getBean(EventBus.class).dispatch(new UserCreated("u-1"));

            Welcomer welcomer = context.getBean(Welcomer.class);
            await().atMost(BOUND).until(() -> welcomer.welcomed.size() == 2);
            await().atMost(BOUND).untilAsserted(() -> assertThat(registry)
                    .hasNumberOfObservationsWithNameEqualTo(HANDLER, 2));
            assertThat(registry).hasAnObservation(observation -> observation.hasNameEqualTo(HANDLER)
                            .hasContextualNameEqualTo("process user.created")
                            .hasLowCardinalityKeyValue("bus", "default")
                            .hasLowCardinalityKeyValue("subscription", "user.created")
                            .hasLowCardinalityKeyValue("event", "user.created")
                            .hasLowCardinalityKeyValue("handler.id", "welcomer.welcome")
                            .hasLowCardinalityKeyValue("outcome", "failure")
                            .hasHighCardinalityKeyValue("event.id", welcomer.welcomed.get(0).eventId().toString())
                            .hasHighCardinalityKeyValue("delivery.attempt", "1")
                            .assertThatError().isInstanceOf(RetryException.class))
                    .hasAnObservation(observation -> observation.hasNameEqualTo(HANDLER)
                            .hasLowCardinalityKeyValue("outcome", "success")
                            .hasHighCardinalityKeyValue("delivery.attempt", "2").doesNotHaveError());
            Observation inScope = welcomer.observations.get(0);
            assertThat(inScope).isNotNull();
            assertThat(inScope.getContext()).isInstanceOf(EventReceiverContext.class);
            assertThat(lowCardinalityKeys(inScope)).containsExactlyInAnyOrder("bus", "subscription", "event",
                    "handler.id", "outcome");
        });
    }

    @Test
    void whatTheDispatchPropagatesIsStoredWithItsDeliveriesAndTheEventsAHandlerReturnsKeepIt() {
        registry.observationConfig().observationHandler(new PropagatesTraceparent());
        observed("localqueue.bus.observation-enabled=true").withBean("announcer", Announcer.class, Announcer::new)
                .run(context -> {
                    context.getBean(EventBus.class).dispatch(new UserCreated("u-1"));

                    Announcer announcer = context.getBean(Announcer.class);
                    await().atMost(BOUND).until(() -> announcer.welcomed.size() == 1);
                    assertThat(registry).as("the returned events are no dispatch of their own")
                            .hasNumberOfObservationsWithNameEqualTo(DISPATCH, 1);
                    assertThat(announcer.created.get(0).headers())
                            .containsExactly(java.util.Map.entry("traceparent", PropagatesTraceparent.VALUE));
                    assertThat(announcer.welcomed.get(0).headers()).isEqualTo(announcer.created.get(0).headers());
                });
    }

    @Test
    void eachIngestionBatchIsObservedAsADispatch() {
        observed("localqueue.bus.observation-enabled=true").run(context -> {
            EventBus bus = context.getBean(EventBus.class);
            bus.ingest(List.of("u-1", "u-2", "u-3"), UserCreated::new);

            assertThat(registry).hasNumberOfObservationsWithNameEqualTo(DISPATCH, 1)
                    .hasAnObservation(observation -> observation.hasNameEqualTo(DISPATCH)
                            .hasHighCardinalityKeyValue("event.count", "3"));
        });
    }

    @Test
    void conventionBeansReplaceTheNamesAndTags() {
        observed("localqueue.bus.observation-enabled=true")
                .withBean(BusDispatchObservationConvention.class, TenantDispatches::new)
                .withBean(BusHandlerObservationConvention.class, TenantHandlers::new).run(context -> {
                    context.getBean(EventBus.class).dispatch(new UserCreated("u-1"));

                    Welcomer welcomer = context.getBean(Welcomer.class);
                    await().atMost(BOUND).until(() -> welcomer.welcomed.size() == 2);
                    await().atMost(BOUND).untilAsserted(() -> assertThat(registry)
                            .hasNumberOfObservationsWithNameEqualTo(HANDLER, 2));
                    assertThat(registry).hasAnObservation(observation -> observation.hasNameEqualTo(DISPATCH)
                                    .hasLowCardinalityKeyValue("tenant", "acme"))
                            .hasAnObservation(observation -> observation.hasNameEqualTo(HANDLER)
                                    .hasLowCardinalityKeyValue("tenant", "acme"));
                });
    }

    private static List<String> lowCardinalityKeys(Observation observation) {
        return observation.getContextView().getLowCardinalityKeyValues().stream().map(KeyValue::getKey).toList();
    }

    /** Writes a fixed trace context into every dispatch's carrier, as a tracing bridge writes the current one. */
    static class PropagatesTraceparent implements io.micrometer.observation.ObservationHandler<EventSenderContext> {
        static final String VALUE = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

        @Override
        public void onStart(EventSenderContext context) {
            context.getSetter().set(context.getCarrier(), "traceparent", VALUE);
        }

        @Override
        public boolean supportsContext(Observation.Context context) {
            return context instanceof EventSenderContext;
        }
    }

    /** Fails each event's first delivery, and records the observation in scope on every one. */
    static class Welcomer {
        final List<EventContext> welcomed = new CopyOnWriteArrayList<>();
        final List<@Nullable Observation> observations = new CopyOnWriteArrayList<>();
        private final ObservationRegistry registry;

        Welcomer(ObservationRegistry registry) {
            this.registry = registry;
        }

        @EventHandler
        void welcome(UserCreated event, EventContext context) {
            welcomed.add(context);
            observations.add(registry.getCurrentObservation());
            if (context.attempt() == 1) {
                throw new RetryException("first delivery fails", Duration.ZERO);
            }
        }
    }

    /** Emits a welcome for each user created, in a subscription of its own. */
    static class Announcer {
        final List<EventContext> created = new CopyOnWriteArrayList<>();
        final List<EventContext> welcomed = new CopyOnWriteArrayList<>();

        @EventHandler(subscription = "announcer")
        UserWelcomed announce(UserCreated event, EventContext context) {
            created.add(context);
            return new UserWelcomed(event.userId());
        }

        @EventHandler
        void welcomed(UserWelcomed event, EventContext context) {
            welcomed.add(context);
        }
    }

    static class TenantDispatches extends DefaultBusDispatchObservationConvention {
        @Override
        public KeyValues getLowCardinalityKeyValues(EventSenderContext context) {
            return super.getLowCardinalityKeyValues(context).and("tenant", "acme");
        }
    }

    static class TenantHandlers extends DefaultBusHandlerObservationConvention {
        @Override
        public KeyValues getLowCardinalityKeyValues(EventReceiverContext context) {
            return super.getLowCardinalityKeyValues(context).and("tenant", "acme");
        }
    }
}
