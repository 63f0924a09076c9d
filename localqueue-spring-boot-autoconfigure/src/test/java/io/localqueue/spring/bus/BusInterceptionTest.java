package io.localqueue.spring.bus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.localqueue.bus.BusEvent;
import io.localqueue.bus.Dispatch;
import io.localqueue.bus.DispatchInterceptor;
import io.localqueue.bus.EventBus;
import io.localqueue.bus.EventContext;
import io.localqueue.spring.ContextRunnerTestBase;
import io.localqueue.spring.EventHandler;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.springframework.core.annotation.Order;

/**
 * The application's {@link DispatchInterceptor} beans run around the bus's dispatches in their order, and its
 * {@link EventHandlerDecorator} beans wrap every {@code @EventHandler} method, the first one outermost.
 */
class BusInterceptionTest extends ContextRunnerTestBase {

    @BusEvent(name = "user.created")
    record UserCreated(String userId) {
    }

    static class Handler {
        final List<EventContext> deliveries = new CopyOnWriteArrayList<>();

        @EventHandler
        void created(UserCreated event, EventContext context) {
            deliveries.add(context);
        }
    }

    @Order(1)
    static class Tenant implements DispatchInterceptor {
        @Override
        public <R> R intercept(Dispatch dispatch, Function<Map<String, String>, R> write) {
            Map<String, String> headers = new LinkedHashMap<>(dispatch.headers());
            headers.put("tenant", "acme");
            return write.apply(headers);
        }
    }

    @Order(2)
    static class Region implements DispatchInterceptor {
        @Override
        public <R> R intercept(Dispatch dispatch, Function<Map<String, String>, R> write) {
            Map<String, String> headers = new LinkedHashMap<>(dispatch.headers());
            headers.put("region", "eu");
            return write.apply(headers);
        }
    }

    static class Recording implements EventHandlerDecorator {
        final List<String> decorated = new CopyOnWriteArrayList<>();
        final List<String> calls = new CopyOnWriteArrayList<>();

        @Override
        public <E> io.localqueue.bus.EventHandler<E> decorate(String bus, String handlerId,
                                                             io.localqueue.bus.EventHandler<E> handler) {
            decorated.add(bus + " " + handlerId);
            return (event, context) -> {
                calls.add(context.eventType());
                return handler.handle(event, context);
            };
        }
    }

    @Test
    void theApplicationsInterceptorsGiveTheDeliveriesHeadersAndItsDecoratorsWrapTheHandlers() {
        onTempDir().withBean("handler", Handler.class).withBean(Region.class).withBean(Tenant.class)
                .withBean(Recording.class).run(context -> {
                    context.getBean(EventBus.class).dispatch(new UserCreated("u-1"));

                    Handler handler = context.getBean(Handler.class);
                    await().atMost(Duration.ofSeconds(10)).until(() -> handler.deliveries.size() == 1);
                    assertThat(handler.deliveries.get(0).headers()).containsExactly(Map.entry("tenant", "acme"),
                            Map.entry("region", "eu"));
                    Recording recording = context.getBean(Recording.class);
                    assertThat(recording.decorated).containsExactly("default handler.created");
                    assertThat(recording.calls).containsExactly("user.created");
                });
    }
}
