package io.localqueue.internal.store.postgresql;

import static io.localqueue.internal.store.postgresql.Transactions.execute;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The wake-ups of other hosts' commits on a real PostgreSQL server: a notification, and the poll without one. */
class NotifyWatchTest extends LayoutTestBase {

    @Test
    void aCommittedNotificationWakesTheWaitersBeforeTheNextPoll() throws Exception {
        try (Watching watching = new Watching(schema)) {
            assertThat(watching.woke(1, 10_000)).as("once when it starts").isTrue();
            watching.forget();

            execute("NOTIFY " + NotifyWatch.channelOf(schema));

            assertThat(watching.woke(1, NotifyWatch.POLL_MILLIS / 2)).isTrue();
        }
    }

    @Test
    void withoutNotificationsTheWaitersAreStillWokenAtThePollInterval() throws Exception {
        try (Watching watching = new Watching(schema)) {
            assertThat(watching.woke(3, 10_000)).as("the start, then two polls").isTrue();
        }
    }
}
