package io.localqueue.internal.store.postgresql;

import static io.localqueue.internal.store.postgresql.Transactions.execute;
import static io.localqueue.internal.store.postgresql.Transactions.query;
import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.internal.store.Delivered;
import io.localqueue.internal.store.Delivery;
import io.localqueue.internal.store.StoredHeaders;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * Event-bus fan-out on a real PostgreSQL server: keys, conflicts, headers, the limit, and edges with their membership.
 */
class FanOutStatementsTest extends LayoutTestBase {

    private static final String AUDIT = "__bus__:default:audit";
    private static final String MAILER = "__bus__:default:mailer";

    @Test
    void aDispatchStoresOneRowPerSubscriptionAndARepeatReusesThem() throws SQLException {
        Delivered first = deliver(List.of(delivery(AUDIT, "e1", null, null), delivery(MAILER, "e1", null, null)), 0);
        Delivered repeat = deliver(List.of(delivery(AUDIT, "e1", null, null), delivery(MAILER, "e1", null, null)),
                0);

        assertThat(first.written()).isTrue();
        assertThat(first.inserted()).containsExactly(true, true);
        assertThat(repeat.ids()).isEqualTo(first.ids());
        assertThat(repeat.inserted()).containsExactly(false, false);
        assertThat(query("SELECT queue || ' ' || job_id || ' ' || max_attempts FROM " + schema
                + ".messages ORDER BY id")).containsExactly(AUDIT + " e1 4", MAILER + " e1 4");
    }

    @Test
    void anIdentityKeepsOneRowAndAnotherPayloadUnderItConflicts() throws SQLException {
        Delivered first = deliver(List.of(delivery(AUDIT, "e1", "user:7", "f1"), delivery(AUDIT, "e2", "user:7",
                "f1")), 0);
        Delivered conflicting = deliver(List.of(delivery(AUDIT, "e3", "user:7", "f2")), 0);
        Delivered otherIdentity = deliver(List.of(delivery(AUDIT, "e1", "user:8", "f1")), 0);

        assertThat(first.ids().get(1)).as("one row for the identity").isEqualTo(first.ids().get(0));
        assertThat(first.inserted()).containsExactly(true, false);
        assertThat(conflicting.conflict()).contains("the identity of event e3 is stored in queue '" + AUDIT + "'")
                .contains("with another payload");
        assertThat(otherIdentity.conflict()).contains("event e1 is stored in queue '" + AUDIT + "'")
                .contains("another identity or payload");
    }

    @Test
    void aNewRowKeepsItsHeadersAndARowThatStandsForADeliveryKeepsItsOwn() throws SQLException {
        Map<String, String> first = Map.of("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
        Map<String, String> second = Map.of("traceparent", "00-11111111111111111111111111111111-2222222222222222-01");

        List<Long> ids = deliver(List.of(delivery(AUDIT, "e1", null, null).withHeaders(first),
                delivery(MAILER, "e1", null, null).withHeaders(first), delivery(AUDIT, "e2", null, null)), 0).ids();
        Delivered repeat = deliver(List.of(delivery(AUDIT, "e1", null, null).withHeaders(second)), 0);

        assertThat(repeat.inserted()).containsExactly(false);
        assertThat(query("SELECT message_id || ' ' || headers FROM " + schema + ".message_headers ORDER BY 1"))
                .containsExactlyInAnyOrder(ids.get(0) + " " + StoredHeaders.encode(first),
                        ids.get(1) + " " + StoredHeaders.encode(first));
    }

    @Test
    void aLimitedFanOutPassesOnlyWhenEveryQueueHasRoom() throws SQLException {
        assertThat(deliver(List.of(delivery(AUDIT, "e1", null, null), delivery(MAILER, "e1", null, null)), 1)
                .written()).isTrue();

        Delivered full = deliver(List.of(delivery(AUDIT, "e2", null, null), delivery(MAILER, "e2", null, null)), 1);
        Delivered repeat = deliver(List.of(delivery(AUDIT, "e1", null, null), delivery(MAILER, "e1", null, null)),
                1);
        Delivered never = deliver(List.of(delivery(MAILER, "e3", null, null), delivery(MAILER, "e4", null, null)), 1);

        assertThat(full.fullQueue()).isEqualTo(AUDIT);
        assertThat(full.impossible()).isFalse();
        assertThat(repeat.written()).as("takes no room").isTrue();
        assertThat(never.fullQueue()).isEqualTo(MAILER);
        assertThat(never.impossible()).isTrue();
        assertThat(query("SELECT count(*)::text FROM " + schema + ".messages")).containsExactly("2");
    }

    @Test
    void emittedDeliveriesAreLinkedAndJoinTheirParentsExecutionsTransitively() throws SQLException {
        List<Long> ids = deliver(List.of(delivery(AUDIT, "parent", null, null), delivery(AUDIT, "child", null, null),
                delivery(AUDIT, "grandchild", null, null)), 0).ids();
        execute("INSERT INTO " + schema + ".event_bus_executions (execution_id, bus_name, source_name, created_at, "
                + "updated_at) VALUES ('e1', 'default', 'users', 1, 1)");
        execute("INSERT INTO " + schema + ".event_bus_execution_deliveries VALUES ('e1', " + ids.get(0) + ")");

        Transactions.run(connection -> {
            FanOutStatements.link(connection, schema, ids.get(1), List.of(ids.get(2)));
            FanOutStatements.link(connection, schema, ids.get(0), List.of(ids.get(1)));
            FanOutStatements.link(connection, schema, ids.get(0), List.of(ids.get(1)));
            return null;
        });

        assertThat(query("SELECT parent_message_id || '>' || child_message_id FROM " + schema
                + ".event_bus_delivery_edges ORDER BY 1")).containsExactlyInAnyOrder(ids.get(0) + ">" + ids.get(1),
                ids.get(1) + ">" + ids.get(2));
        assertThat(query("SELECT message_id::text FROM " + schema + ".event_bus_execution_deliveries ORDER BY "
                + "message_id")).containsExactly(ids.get(0).toString(), ids.get(1).toString(), ids.get(2).toString());
    }

    private Delivered deliver(List<Delivery> deliveries, long limit) throws SQLException {
        return Transactions.run(connection -> FanOutStatements.deliver(connection, schema, deliveries, 100, limit));
    }

    private static Delivery delivery(String queue, String eventId, @Nullable String key, @Nullable String print) {
        return new Delivery(queue, ("{\"event_id\": \"" + eventId + "\"}").getBytes(StandardCharsets.UTF_8), eventId,
                4, key, print);
    }
}
