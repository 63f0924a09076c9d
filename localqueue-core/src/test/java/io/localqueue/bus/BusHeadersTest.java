package io.localqueue.bus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.localqueue.RetryPolicy;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Headers that a dispatch interceptor gives a dispatch, a batch of dispatches, an ingestion batch or a handler's
 * events are stored with their deliveries and reach every handler's context, on every delivery; a handler's events
 * inherit the headers of the delivery that emitted them unless the interceptor gives them others.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BusHeadersTest extends BusTestBase {

    private static final Duration BOUND = Duration.ofSeconds(10);
    private static final Map<String, String> TRACE = ordered("traceparent",
            "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "baggage", "tenant=acme");

    @BusEvent(name = "user.created")
    record UserCreated(String userId) {
    }

    @BusEvent(name = "user.welcomed")
    record UserWelcomed(String userId) {
    }

    @BusEvent(name = "row.imported", identity = "rowId")
    record RowImported(String rowId) {
    }

    /** Gives every dispatch and ingestion batch {@link #TRACE}, keeps what a handler's events inherit, and records. */
    static final class Recording implements DispatchInterceptor {
        final List<Dispatch> seen = new CopyOnWriteArrayList<>();
        final List<Throwable> thrown = new CopyOnWriteArrayList<>();
        private final Function<Dispatch, @Nullable Map<String, String>> headers;

        Recording(Function<Dispatch, @Nullable Map<String, String>> headers) {
            this.headers = headers;
        }

        Recording() {
            this(dispatch -> dispatch.emittedBy() == null ? TRACE : dispatch.headers());
        }

        @Override
        public <R> R intercept(Dispatch dispatch, Function<Map<String, String>, R> write) {
            seen.add(dispatch);
            try {
                return write.apply(headers.apply(dispatch));
            } catch (RuntimeException failure) {
                thrown.add(failure);
                throw failure;
            }
        }
    }

    @Test
    void headersGivenAtDispatchReachTheHandlerOfEverySubscriptionOnEveryDelivery() {
        Recording interceptor = new Recording();
        EventBus bus = open(EventBus.builder(database()).dispatchInterceptor(interceptor));
        List<EventContext> mailer = new CopyOnWriteArrayList<>();
        List<EventContext> audit = new CopyOnWriteArrayList<>();
        bus.handler(UserCreated.class, "mailer", (event, context) -> {
            mailer.add(context);
            if (context.attempt() == 1) {
                throw new IllegalStateException("first delivery fails");
            }
            return null;
        });
        bus.handler(UserCreated.class, "audit", (event, context) -> {
            audit.add(context);
            return null;
        });
        bus.subscription("mailer").config().retry(RetryPolicy.fixed(3, Duration.ZERO));
        bus.start();

        bus.dispatch(new UserCreated("u-1"));

        await().atMost(BOUND).until(() -> mailer.size() == 2 && audit.size() == 1);
        assertThat(mailer).extracting(EventContext::attempt).containsExactly(1, 2);
        assertThat(mailer).extracting(EventContext::headers).containsOnly(TRACE);
        assertThat(mailer.get(0).headers().keySet()).containsExactly("traceparent", "baggage");
        assertThat(audit.get(0).headers()).isEqualTo(TRACE);
        assertThat(interceptor.seen).singleElement().satisfies(dispatch -> {
            assertThat(dispatch.bus()).isEqualTo("default");
            assertThat(dispatch.eventTypes()).containsExactly("user.created");
            assertThat(dispatch.headers()).as("a dispatch inherits nothing").isEmpty();
            assertThat(dispatch.emittedBy()).isNull();
        });
    }

    @Test
    void withoutAnInterceptorADeliveryHasNoHeaders() {
        EventBus bus = open(EventBus.builder(database()));
        List<EventContext> handled = new CopyOnWriteArrayList<>();
        bus.handler(UserCreated.class, (event, context) -> {
            handled.add(context);
            return new UserWelcomed(event.userId());
        });
        bus.handler(UserWelcomed.class, (event, context) -> {
            handled.add(context);
            return null;
        });
        bus.start();

        bus.dispatch(new UserCreated("u-1"));

        await().atMost(BOUND).until(() -> handled.size() == 2);
        assertThat(handled).extracting(EventContext::headers).containsOnly(Map.of());
    }

    @Test
    void emittedEventsInheritTheHeadersOfTheDeliveryThatEmittedThem() throws SQLException {
        Recording interceptor = new Recording();
        EventBus bus = open(EventBus.builder(database()).dispatchInterceptor(interceptor));
        List<EventContext> children = new CopyOnWriteArrayList<>();
        bus.handler(UserCreated.class, (event, context) -> List.of(new UserWelcomed(event.userId()),
                new UserWelcomed(event.userId() + "-again")));
        bus.handler(UserWelcomed.class, (event, context) -> {
            children.add(context);
            return null;
        });
        bus.start();

        bus.dispatch(new UserCreated("u-1"));

        await().atMost(BOUND).until(() -> children.size() == 2);
        assertThat(children).extracting(EventContext::headers).containsOnly(TRACE);
        assertThat(storedHeaders("user.welcomed")).hasSize(2);
        Dispatch emission = interceptor.seen.get(1);
        assertThat(emission.eventTypes()).containsExactly("user.welcomed", "user.welcomed");
        assertThat(emission.headers()).as("what the children inherit").isEqualTo(TRACE);
        assertThat(emission.emittedBy()).isNotNull();
        assertThat(emission.emittedBy().subscription()).isEqualTo("user.created");
        assertThat(children.get(0).causationId()).isEqualTo(emission.emittedBy().eventId());
    }

    @Test
    void anInterceptorMayGiveEmittedEventsOtherHeaders() {
        Map<String, String> childTrace = Map.of("traceparent",
                "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01");
        EventBus bus = open(EventBus.builder(database()).dispatchInterceptor(new Recording(
                dispatch -> dispatch.emittedBy() == null ? TRACE : childTrace)));
        List<EventContext> children = new CopyOnWriteArrayList<>();
        bus.handler(UserCreated.class, (event, context) -> new UserWelcomed(event.userId()));
        bus.handler(UserWelcomed.class, (event, context) -> {
            children.add(context);
            return null;
        });
        bus.start();

        bus.dispatch(new UserCreated("u-1"));

        await().atMost(BOUND).until(() -> children.size() == 1);
        assertThat(children.get(0).headers()).isEqualTo(childTrace);
    }

    @Test
    void aBatchOfDispatchesIsInterceptedOnceAndEveryDeliveryCarriesItsHeaders() throws SQLException {
        Recording interceptor = new Recording();
        EventBus bus = open(EventBus.builder(database()).dispatchInterceptor(interceptor)
                .topology(BusTopology.builder().route("audit", "*").build()));
        bus.register(UserCreated.class);
        bus.register(UserWelcomed.class);

        bus.dispatchAll(List.of(new UserCreated("u-1"), new UserWelcomed("u-1")));
        bus.dispatchAll(List.of());

        assertThat(interceptor.seen).singleElement().extracting(Dispatch::eventTypes)
                .isEqualTo(List.of("user.created", "user.welcomed"));
        assertThat(storedHeaders("audit")).containsExactly(TRACE, TRACE);
    }

    @Test
    void eachIngestionBatchIsInterceptedAndItsDeliveriesCarryItsHeaders() throws SQLException {
        Recording interceptor = new Recording();
        EventBus bus = open(EventBus.builder(database()).dispatchInterceptor(interceptor)
                .topology(BusTopology.builder().route("audit", UserCreated.class).build()));

        IngestionResult result = bus.ingest(SequenceSource.of(List.of("a", "b", "c", "d", "e"), "five"), "users",
                UserCreated::new, 2, 0);

        assertThat(result.batchesCommitted()).isEqualTo(3);
        assertThat(interceptor.seen).extracting(dispatch -> dispatch.eventTypes().size()).containsExactly(2, 2, 1);
        assertThat(storedHeaders("audit")).hasSize(5).containsOnly(TRACE);
    }

    @Test
    void aRepeatedDispatchKeepsTheHeadersTheDeliveryWasFirstStoredWith() throws SQLException {
        Map<String, String> later = Map.of("traceparent", "00-11111111111111111111111111111111-2222222222222222-01");
        List<Map<String, String>> given = new ArrayList<>(List.of(TRACE, later));
        EventBus bus = open(EventBus.builder(database()).dispatchInterceptor(new Recording(
                dispatch -> given.remove(0))).topology(BusTopology.builder().route("rows", RowImported.class).build()));

        DispatchReceipt first = bus.dispatch(new RowImported("r-1"));
        DispatchReceipt again = bus.dispatch(new RowImported("r-1"));

        assertThat(again.inserted()).containsExactly(false);
        assertThat(again.messageIds()).isEqualTo(first.messageIds());
        assertThat(storedHeaders("rows")).containsExactly(TRACE);
    }

    @Test
    void headersThatCannotBeStoredRefuseTheDispatchAndNothingIsWritten() throws SQLException {
        Map<String, String> nullValue = new LinkedHashMap<>();
        nullValue.put("traceparent", null);
        Recording interceptor = new Recording(dispatch -> nullValue);
        EventBus bus = open(EventBus.builder(database()).dispatchInterceptor(interceptor)
                .topology(BusTopology.builder().route("audit", UserCreated.class).build()));

        assertThatThrownBy(() -> bus.dispatch(new UserCreated("u-1"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("headers holds no value for header 'traceparent'");
        assertThat(interceptor.thrown).hasSize(1);
        assertThat(count("SELECT COUNT(*) FROM messages")).isZero();
    }

    @Test
    void aDispatchThatNothingRoutesFailsInsideTheInterceptor() {
        Recording interceptor = new Recording();
        EventBus bus = open(EventBus.builder(database()).dispatchInterceptor(interceptor));

        assertThatThrownBy(() -> bus.dispatch(new UserCreated("u-1"))).isInstanceOf(NoSubscribersException.class);
        assertThat(interceptor.thrown).singleElement().isInstanceOf(NoSubscribersException.class);
    }

    @Test
    void combinedInterceptorsRunFirstOutermostEachSeeingWhatTheOuterOnePassedOn() throws SQLException {
        List<String> order = new CopyOnWriteArrayList<>();
        DispatchInterceptor outer = new DispatchInterceptor() {
            @Override
            public <R> R intercept(Dispatch dispatch, Function<Map<String, String>, R> write) {
                order.add("outer sees " + dispatch.headers());
                return write.apply(Map.of("tenant", "acme"));
            }
        };
        DispatchInterceptor inner = new DispatchInterceptor() {
            @Override
            public <R> R intercept(Dispatch dispatch, Function<Map<String, String>, R> write) {
                order.add("inner sees " + dispatch.headers());
                Map<String, String> more = new LinkedHashMap<>(dispatch.headers());
                more.put("region", "eu");
                return write.apply(more);
            }
        };
        EventBus bus = open(EventBus.builder(database()).dispatchInterceptor(DispatchInterceptor.of(List.of(outer,
                inner))).topology(BusTopology.builder().route("audit", UserCreated.class).build()));

        bus.dispatch(new UserCreated("u-1"));

        assertThat(order).containsExactly("outer sees {}", "inner sees {tenant=acme}");
        assertThat(storedHeaders("audit")).containsExactly(Map.of("tenant", "acme", "region", "eu"));
        assertThat(DispatchInterceptor.of(List.of())).isSameAs(DispatchInterceptor.NONE);
    }

    /** The headers stored with a subscription's deliveries, in id order; a delivery without any has no row. */
    private List<Map<String, String>> storedHeaders(String subscription) throws SQLException {
        List<Map<String, String>> headers = new ArrayList<>();
        try (Connection connection = connect(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT h.headers FROM messages m JOIN message_headers h "
                     + "ON h.message_id = m.id WHERE m.queue = '__bus__:default:" + subscription + "' ORDER BY m.id")) {
            while (rows.next()) {
                headers.add(io.localqueue.internal.store.StoredHeaders.decode(rows.getString(1)));
            }
        }
        return headers;
    }

    private long count(String sql) throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        }
    }

    private static Map<String, String> ordered(String... namesAndValues) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            headers.put(namesAndValues[i], namesAndValues[i + 1]);
        }
        return headers;
    }
}
