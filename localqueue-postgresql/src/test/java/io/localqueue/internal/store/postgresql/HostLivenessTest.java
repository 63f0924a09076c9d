package io.localqueue.internal.store.postgresql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.localqueue.DeliveryPolicy;
import io.localqueue.EnqueueItem;
import io.localqueue.Job;
import io.localqueue.LeaseExpiredException;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.SimpleQueue;
import io.localqueue.internal.store.Receipts;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * A host's liveness lock lives in a session of its own: when that session ends (a failover, a dropped connection,
 * {@code pg_terminate_backend}), other hosts take the leases claimed under it back at once, its acknowledgements of
 * them fail their fence, and the host takes a new key, never the old one, for its later claims.
 */
class HostLivenessTest {

    private static final Duration LEASE = Duration.ofSeconds(60);

    private final String schema = PostgresServer.freshSchema();

    @Test
    void aHostWhoseLockSessionEndsHasItsLeasesTakenBackAndNamesANewKeyAfterwards() throws SQLException {
        DeliveryPolicy delivery = DeliveryPolicy.defaults().withLease(LEASE);
        try (LocalQueueDatabase first = LocalQueueDatabase.open(PostgresServer.pool(), schema);
             LocalQueueDatabase second = LocalQueueDatabase.server(PostgresServer.url()).schema(schema).poolSize(4)
                     .open();
             SimpleQueue<String> a = SimpleQueue.builder(first, String.class).name("q").delivery(delivery).build();
             SimpleQueue<String> b = SimpleQueue.builder(second, String.class).name("q").delivery(delivery)
                     .build()) {
            a.putMany(IntStream.range(0, 40).mapToObj(i -> EnqueueItem.of("job-" + i)).toList());
            Job<String> held = a.get(Duration.ofSeconds(5));
            String oldHolder = Receipts.holderOf(held.receipt());
            assertThat(oldHolder).as("the holder of host a's first claim").isNotNull();

            assertThat(terminateSessionHolding(oldHolder)).as("sessions holding the key").isEqualTo(1);
            await().atMost(Duration.ofSeconds(10)).until(() -> sessionsHolding(oldHolder) == 0);

            Job<String> again = b.get(Duration.ofSeconds(5));
            assertThat(again.id()).as("the job host b took back from the ended key").isEqualTo(held.id());
            assertThat(again.attempts()).isEqualTo(1);
            assertThat(Receipts.holderOf(again.receipt())).isNotNull().isNotEqualTo(oldHolder);
            assertThatThrownBy(() -> a.ack(held)).isInstanceOf(LeaseExpiredException.class);
            b.ack(again);

            // Host a notices within about a second and takes a lock on a new key.
            String bHolder = Receipts.holderOf(again.receipt());
            await().atMost(Duration.ofSeconds(10)).until(() -> heldKeys().stream()
                    .anyMatch(key -> !key.equals(oldHolder) && !key.equals(bHolder)));
            AtomicReference<String> newHolder = new AtomicReference<>();
            await().atMost(Duration.ofSeconds(10)).until(() -> {
                Job<String> next = a.get(Duration.ofSeconds(1));
                String named = Receipts.holderOf(next.receipt());
                try {
                    a.ack(next);
                } catch (LeaseExpiredException takenBack) {
                    return false; // claimed under the ended key before host a noticed, and taken back meanwhile
                }
                newHolder.set(named);
                return named != null && !named.equals(oldHolder);
            });
            assertThat(heldKeys()).as("keys held on the database").contains(newHolder.get(), bHolder)
                    .doesNotContain(oldHolder);
        }
    }

    /** Ends the sessions that hold the advisory lock on a holder's key, as a dropped connection would. */
    private static int terminateSessionHolding(String holder) throws SQLException {
        return count("SELECT count(pg_terminate_backend(pid))", holder);
    }

    /** Counts the sessions that hold the advisory lock on a holder's key; a terminated one leaves it soon after. */
    private static int sessionsHolding(String holder) throws SQLException {
        return count("SELECT count(*)", holder);
    }

    /** The holder names of every advisory key held on the database now. */
    private static List<String> heldKeys() throws SQLException {
        try (Connection connection = PostgresServer.connect();
             PreparedStatement select = connection.prepareStatement("""
                     SELECT (classid::bigint << 32) | objid::bigint FROM pg_locks
                      WHERE locktype = 'advisory' AND objsubid = 1 AND granted
                        AND database = (SELECT oid FROM pg_database WHERE datname = current_database())""");
             ResultSet rows = select.executeQuery()) {
            List<String> keys = new ArrayList<>();
            while (rows.next()) {
                keys.add(HexFormat.of().toHexDigits(rows.getLong(1)));
            }
            return keys;
        }
    }

    private static int count(String select, String holder) throws SQLException {
        long key = Long.parseLong(holder, 16);
        try (Connection connection = PostgresServer.connect();
             PreparedStatement terminate = connection.prepareStatement(select + """
                      FROM pg_locks
                      WHERE locktype = 'advisory' AND objsubid = 1 AND granted
                        AND classid::bigint = ? AND objid::bigint = ?""")) {
            terminate.setLong(1, key >>> 32);
            terminate.setLong(2, key & 0xFFFF_FFFFL);
            try (ResultSet count = terminate.executeQuery()) {
                count.next();
                return count.getInt(1);
            }
        }
    }
}
