package io.localqueue;

import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.internal.store.Receipts;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Which leases a claim takes back early, on either store: only those whose receipt names a holder that ended. A
 * receipt of the Python library's format, or of this library's older one, names none, so its lease ends with its time
 * alone; this process's own leases are never taken back. Runs on the real clock, with 60-second leases, so that a
 * lease taken back at once was taken back early.
 */
class LeaseHoldersTest extends QueueTestBase {

    /** A holder no process holds: slot 4095 of a file, or advisory lock key 0x0fff000000000001 on a server. */
    private static final String ENDED_HOLDER = "0fff000000000001";

    @Test
    void onlyLeasesNamingAnEndedHolderAreTakenBackBeforeTheyEnd() throws SQLException {
        SimpleQueue<Object> queue = open(SimpleQueue.builder(database()).name("holders"));
        long python = queue.put("python");
        long older = queue.put("older");
        long ended = queue.put("ended");
        long leaseUntil = System.currentTimeMillis() + 60_000;
        lease(python, "12345-1753400000123456789", leaseUntil);
        lease(older, "0123456789abcdef01234567-" + older, leaseUntil);
        String endedReceipt = Receipts.newPrefix(ENDED_HOLDER) + ended;
        lease(ended, endedReceipt, leaseUntil);
        assertThat(Receipts.holderOf(endedReceipt)).isEqualTo(ENDED_HOLDER);
        assertThat(Receipts.holderOf("12345-1753400000123456789")).isNull();
        assertThat(Receipts.holderOf("0123456789abcdef01234567-" + older)).isNull();

        Job<Object> again = queue.get(Duration.ofSeconds(5));

        assertThat(again.id()).as("the job whose holder ended, claimed again at once").isEqualTo(ended);
        assertThat(again.attempts()).as("the ended holder's delivery counted").isEqualTo(1);
        assertThat(Receipts.holderOf(again.receipt())).as("this process's holder").isNotNull()
                .isNotEqualTo(ENDED_HOLDER);
        assertThat(leased()).as("leases naming no holder, untouched").isEqualTo(Map.of(
                python, "12345-1753400000123456789", older, "0123456789abcdef01234567-" + older,
                ended, again.receipt()));

        Job<Object> none = null;
        try {
            none = queue.getNowait();
        } catch (QueueEmptyException expected) {
            // this process's own lease and the two foreign ones stay
        }
        assertThat(none).isNull();
        queue.ack(again);
        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 2, 1, 0));
    }

    /** Leases a ready job as another library would have: status 1, a receipt, a lease end and one claim counted. */
    private void lease(long id, String receipt, long leaseUntil) throws SQLException {
        try (Connection connection = TestDatabases.connect(dir);
             PreparedStatement update = connection.prepareStatement(
                     "UPDATE messages SET status = 1, receipt = ?, lease_until = ?, attempts = 1 WHERE id = ?")) {
            update.setString(1, receipt);
            update.setLong(2, leaseUntil);
            update.setLong(3, id);
            assertThat(update.executeUpdate()).isEqualTo(1);
        }
    }

    private Map<Long, String> leased() throws SQLException {
        try (Connection connection = TestDatabases.connect(dir);
             PreparedStatement select = connection.prepareStatement(
                     "SELECT id, receipt FROM messages WHERE status = 1 ORDER BY id");
             ResultSet rows = select.executeQuery()) {
            Map<Long, String> leased = new TreeMap<>();
            while (rows.next()) {
                leased.put(rows.getLong(1), rows.getString(2));
            }
            return leased;
        }
    }
}
