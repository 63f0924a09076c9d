package io.localqueue.internal.store.postgresql;

import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.QueueStats;
import io.localqueue.internal.store.NewJob;
import io.localqueue.internal.store.QueueSnapshot;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The diagnostics snapshot on a real PostgreSQL server: a queue's counts and ages, and the database's facts. */
class SnapshotStatementsTest extends LayoutTestBase {

    @Test
    void aSnapshotCountsAgesAndLeasesAndDescribesTheDatabase() throws SQLException {
        Transactions.run(c -> EnqueueStatements.insert(c, schema, "emails", List.of(new NewJob(bytes("a"), null),
                new NewJob(bytes("b"), null), new NewJob(bytes("c"), null)), 4, 1_000, 0));
        Transactions.run(c -> ClaimStatements.claim(c, schema, "emails", 2_000, 3_000, 1, false, 0));
        Transactions.run(c -> ClaimStatements.claim(c, schema, "emails", 2_500, 9_000, 1, false, 0));

        QueueSnapshot snapshot;
        try (Connection connection = PostgresServer.connect()) {
            snapshot = SnapshotStatements.snapshot(connection, schema, "emails",
                    Clock.fixed(Instant.ofEpochMilli(5_000), ZoneOffset.UTC));
            assertThat(connection.getAutoCommit()).isTrue();
        }

        assertThat(snapshot.stats()).isEqualTo(new QueueStats(1, 2, 0, 0));
        assertThat(snapshot.observedAt()).isEqualTo(5_000);
        assertThat(snapshot.oldestDue()).isEqualTo(1_000);
        assertThat(snapshot.oldestLeaseUpdate()).isEqualTo(2_000);
        assertThat(snapshot.activeLeases()).isEqualTo(1);
        assertThat(snapshot.expiredLeases()).isEqualTo(1);
        assertThat(snapshot.oldestExpiredLease()).isEqualTo(3_000);
        assertThat(snapshot.engineVersion()).startsWith("18.");
        assertThat(snapshot.journalMode()).isEqualTo(SnapshotStatements.JOURNAL_MODE);
        assertThat(snapshot.databaseSizeBytes()).isPositive();
        assertThat(snapshot.walSizeBytes()).isNull();
        assertThat(snapshot.pageSize()).isEqualTo(8192);
    }

    @Test
    void lockTimeoutSettingsReadAsMilliseconds() {
        assertThat(SnapshotStatements.milliseconds("0")).isZero();
        assertThat(SnapshotStatements.milliseconds("250ms")).isEqualTo(250);
        assertThat(SnapshotStatements.milliseconds("5s")).isEqualTo(5_000);
        assertThat(SnapshotStatements.milliseconds("2min")).isEqualTo(120_000);
        assertThat(SnapshotStatements.milliseconds("1h")).isEqualTo(3_600_000);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
