package io.localqueue.internal.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.DurabilityMode;
import io.localqueue.internal.store.Delivered;
import io.localqueue.internal.store.Delivery;
import io.localqueue.internal.store.StoredHeaders;
import io.localqueue.internal.store.WriteOptions;
import io.localqueue.storage.RawSqlite;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A fan-out stores each new row's headers beside it in the same transaction, and a row that stands for a repeated
 * delivery keeps the headers it has.
 */
class FanOutHeadersTest extends StoreTestBase {

    private static final String AUDIT = "__bus__:default:audit";
    private static final String MAILER = "__bus__:default:mailer";
    private static final Map<String, String> FIRST =
            Map.of("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
    private static final Map<String, String> SECOND =
            Map.of("traceparent", "00-11111111111111111111111111111111-2222222222222222-01");

    @Test
    void newRowsKeepTheirHeadersAndARowThatStandsForADeliveryKeepsItsOwn() throws SQLException {
        List<Long> ids = deliver(List.of(delivery(AUDIT, "e1").withHeaders(FIRST),
                delivery(MAILER, "e1").withHeaders(FIRST), delivery(AUDIT, "e2"))).ids();
        Delivered repeat = deliver(List.of(delivery(AUDIT, "e1").withHeaders(SECOND)));

        assertThat(repeat.inserted()).containsExactly(false);
        assertThat(RawSqlite.query(store.file(), "SELECT message_id, headers FROM message_headers ORDER BY 1"))
                .containsExactly(Map.of("message_id", ids.get(0), "headers", StoredHeaders.encode(FIRST)),
                        Map.of("message_id", ids.get(1), "headers", StoredHeaders.encode(FIRST)));
    }

    private Delivered deliver(List<Delivery> deliveries) {
        return store.write(WriteOptions.standard("deliver", DurabilityMode.RELAXED), () -> { },
                writes -> writes.bus().deliver(deliveries, 1_000, 0));
    }

    private static Delivery delivery(String queue, String eventId) {
        return new Delivery(queue, ("{\"event_id\": \"" + eventId + "\"}").getBytes(StandardCharsets.UTF_8), eventId,
                4, null, null);
    }
}
