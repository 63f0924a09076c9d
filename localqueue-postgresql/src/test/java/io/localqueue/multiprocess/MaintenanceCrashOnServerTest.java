package io.localqueue.multiprocess;

import io.localqueue.internal.store.postgresql.PostgresServer;
import java.sql.DriverManager;
import java.util.Random;

/**
 * {@link MaintenanceCrashTest} on PostgreSQL: each queue in a schema of its own on the embedded server, opened by the
 * child JVMs through its URL as another host would, and killed with {@code kill -9} while they hold connections,
 * transactions and leases.
 */
class MaintenanceCrashOnServerTest extends MaintenanceCrashTest {

    @Override
    int queuesPerRun() {
        return 2;
    }

    /** A child opens a pool and checks the layout first, which takes longer than opening a file. */
    @Override
    long killAfterMillis(Random random) {
        return 300 + random.nextInt(900);
    }

    @Override
    Target target(int number) {
        String url = PostgresServer.url();
        String schema = PostgresServer.freshSchema();
        return new Target(url + "|" + schema, schema + ".messages", () -> DriverManager.getConnection(url));
    }
}
