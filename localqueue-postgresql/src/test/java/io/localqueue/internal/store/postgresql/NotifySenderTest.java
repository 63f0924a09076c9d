package io.localqueue.internal.store.postgresql;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * Notifications of this host's commits on a real PostgreSQL server: sent soon after the commit, folded when commits
 * come faster than the spacing, and the last one sent even when the store closes at once.
 */
class NotifySenderTest extends LayoutTestBase {

    @Test
    void aCommitIsAnnouncedToAnotherHostsWatchBeforeItsNextPoll() throws Exception {
        try (Watching watching = new Watching(schema); NotifySender sender = new NotifySender(PostgresServer.database(),
                schema)) {
            assertThat(watching.woke(1, 10_000)).as("once when it starts").isTrue();
            watching.forget();

            sender.committed();

            assertThat(watching.woke(1, NotifyWatch.POLL_MILLIS / 2)).isTrue();
        }
    }

    @Test
    void commitsFasterThanTheSpacingAreFoldedAndTheLastOneIsStillAnnounced() throws Exception {
        try (Connection listener = listening()) {
            int commits = 5_000;
            long started = System.nanoTime();
            try (NotifySender sender = new NotifySender(PostgresServer.database(), schema)) {
                for (int i = 0; i < commits; i++) {
                    sender.committed();
                    if (i % 100 == 0) {
                        TimeUnit.MILLISECONDS.sleep(1);
                    }
                }
                long lastCommit = System.nanoTime();

                int received = 0;
                long lastReceived = 0;
                for (PGNotification[] heard = poll(listener, 1_000); heard.length > 0;
                     heard = poll(listener, 300)) {
                    received += heard.length;
                    lastReceived = System.nanoTime();
                }
                long spacings = (lastCommit - started) / NotifySender.SPACING_NANOS;

                assertThat(received).as("at most one per spacing of the burst, and one after it")
                        .isBetween(1, (int) spacings + 2);
                assertThat(received).isLessThan(commits / 10);
                assertThat(lastReceived).as("a notification came after the last commit").isGreaterThan(lastCommit);
            }
        }
    }

    @Test
    void closingSendsWhatIsPendingAndNothingIsSentAfter() throws Exception {
        try (Connection listener = listening()) {
            NotifySender sender = new NotifySender(PostgresServer.database(), schema);
            sender.committed();
            sender.close();

            assertThat(poll(listener, 5_000)).as("the pending notification").hasSize(1);
            sender.committed();
            assertThat(poll(listener, 300)).as("none once closed").isEmpty();
        }
    }

    private Connection listening() throws SQLException {
        Connection connection = PostgresServer.connect();
        try (Statement statement = connection.createStatement()) {
            statement.execute("LISTEN " + NotifyWatch.channelOf(schema));
        }
        return connection;
    }

    private static PGNotification[] poll(Connection listener, int millis) throws SQLException {
        PGNotification[] heard = listener.unwrap(PGConnection.class).getNotifications(millis);
        return heard == null ? new PGNotification[0] : heard;
    }
}
