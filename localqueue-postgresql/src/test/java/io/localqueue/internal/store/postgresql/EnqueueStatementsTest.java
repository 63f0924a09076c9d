package io.localqueue.internal.store.postgresql;

import static io.localqueue.internal.store.postgresql.Transactions.query;
import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.internal.store.Enqueued;
import io.localqueue.internal.store.NewJob;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Enqueue on a real PostgreSQL server: ids in input order, job-id deduplication, headers, an exact limit. */
class EnqueueStatementsTest extends LayoutTestBase {

    @Test
    void aBatchIsInsertedInInputOrderWithItsHeaders() throws SQLException {
        List<NewJob> jobs = new ArrayList<>();
        for (int i = 0; i < 1_500; i++) {
            jobs.add(new NewJob(bytes("job " + i), null, i == 7 ? Map.of("trace", "t-7") : Map.of()));
        }

        Enqueued enqueued = inTransaction(connection -> EnqueueStatements.insert(connection, schema, "emails", jobs,
                4, 1_000, 0));

        assertThat(enqueued.ids()).hasSize(1_500).isSorted().doesNotHaveDuplicates();
        assertThat(query("SELECT convert_from(payload, 'UTF8') FROM " + schema + ".messages WHERE id = "
                + enqueued.ids().get(1_234))).containsExactly("job 1234");
        assertThat(query("SELECT status || ' ' || attempts || ' ' || max_attempts || ' ' || available_at FROM "
                + schema + ".messages WHERE id = " + enqueued.ids().get(0))).containsExactly("0 0 4 1000");
        assertThat(query("SELECT message_id || ' ' || headers FROM " + schema + ".message_headers"))
                .containsExactly(enqueued.ids().get(7) + " {\"trace\":\"t-7\"}");
    }

    @Test
    void aJobIdResolvesToItsRowWithinTheBatchAndAcrossBatches() throws SQLException {
        List<Long> first = inTransaction(connection -> EnqueueStatements.insert(connection, schema, "emails",
                List.of(new NewJob(bytes("a"), "welcome-1"), new NewJob(bytes("b"), null),
                        new NewJob(bytes("a again"), "welcome-1")), 4, 1, 0)).ids();

        List<Long> second = inTransaction(connection -> EnqueueStatements.insert(connection, schema, "emails",
                List.of(new NewJob(bytes("c"), null), new NewJob(bytes("a later"), "welcome-1",
                        Map.of("ignored", "yes"))), 4, 2, 0)).ids();
        List<Long> otherQueue = inTransaction(connection -> EnqueueStatements.insert(connection, schema, "sms",
                List.of(new NewJob(bytes("x"), "welcome-1")), 4, 3, 0)).ids();

        assertThat(first.get(2)).isEqualTo(first.get(0));
        assertThat(second.get(1)).isEqualTo(first.get(0));
        assertThat(otherQueue.get(0)).isNotEqualTo(first.get(0));
        assertThat(query("SELECT count(*)::text FROM " + schema + ".messages WHERE queue = 'emails'"))
                .containsExactly("3");
        assertThat(query("SELECT convert_from(payload, 'UTF8') FROM " + schema + ".messages WHERE id = "
                + first.get(0))).containsExactly("a");
        assertThat(query("SELECT count(*)::text FROM " + schema + ".message_headers")).containsExactly("0");
    }

    @Test
    void aLoneJobIsInsertedWithEveryColumnAndItsJobIdResolvesToItsRowWhenPutAgain() throws SQLException {
        long id = inTransaction(connection -> EnqueueStatements.insert(connection, schema, "emails",
                List.of(new NewJob(bytes("a"), "welcome-1", Map.of("trace", "t-a"), 5_000, -3, "tenant-9")), 4,
                1_000, 0)).ids().get(0);

        long again = inTransaction(connection -> EnqueueStatements.insert(connection, schema, "emails",
                List.of(new NewJob(bytes("a later"), "welcome-1", Map.of("ignored", "yes"))), 4, 2_000, 0)).ids()
                .get(0);
        long plain = inTransaction(connection -> EnqueueStatements.insert(connection, schema, "emails",
                List.of(new NewJob(bytes("b"), null)), 7, 3_000, 0)).ids().get(0);

        assertThat(again).isEqualTo(id);
        assertThat(plain).isGreaterThan(id);
        assertThat(query("SELECT convert_from(payload, 'UTF8') || ' ' || job_id || ' ' || status || ' ' || attempts "
                + "|| ' ' || max_attempts || ' ' || available_at || ' ' || priority || ' ' || concurrency_key || ' ' "
                + "|| created_at FROM " + schema + ".messages WHERE id = " + id))
                .containsExactly("a welcome-1 0 0 4 5000 -3 tenant-9 1000");
        assertThat(query("SELECT convert_from(payload, 'UTF8') || ' ' || coalesce(job_id, '-') || ' ' "
                + "|| max_attempts || ' ' || available_at || ' ' || priority || ' ' || coalesce(concurrency_key, '-') "
                + "FROM " + schema + ".messages WHERE id = " + plain)).containsExactly("b - 7 3000 0 -");
        assertThat(query("SELECT message_id || ' ' || headers FROM " + schema + ".message_headers"))
                .containsExactly(id + " {\"trace\":\"t-a\"}");
    }

    @Test
    void aLimitedQueueRefusesWhatDoesNotFitAndCountsKnownJobIdsAsNoRoom() throws SQLException {
        assertThat(inTransaction(connection -> EnqueueStatements.insert(connection, schema, "emails",
                List.of(new NewJob(bytes("1"), "a"), new NewJob(bytes("2"), null)), 4, 1, 3)).ids()).hasSize(2);

        Enqueued tooMany = inTransaction(connection -> EnqueueStatements.insert(connection, schema, "emails",
                List.of(new NewJob(bytes("3"), null), new NewJob(bytes("4"), null)), 4, 1, 3));
        Enqueued never = inTransaction(connection -> EnqueueStatements.insert(connection, schema, "emails",
                List.of(new NewJob(bytes("5"), null), new NewJob(bytes("6"), null), new NewJob(bytes("7"), null),
                        new NewJob(bytes("8"), null)), 4, 1, 3));
        Enqueued known = inTransaction(connection -> EnqueueStatements.insert(connection, schema, "emails",
                List.of(new NewJob(bytes("1 again"), "a"), new NewJob(bytes("9"), null)), 4, 1, 3));

        assertThat(tooMany.ids()).isNull();
        assertThat(tooMany.newRows()).isEqualTo(2);
        assertThat(tooMany.impossible()).isFalse();
        assertThat(never.impossible()).isTrue();
        assertThat(known.ids()).as("the known job id takes no room").hasSize(2);
        assertThat(query("SELECT count(*)::text FROM " + schema + ".messages")).containsExactly("3");
    }

    @Test
    void hostsFillingALimitedQueueAtOnceNeverExceedIt() throws Exception {
        int hosts = 6;
        int limit = 50;
        CountDownLatch ready = new CountDownLatch(hosts);
        ExecutorService producers = Executors.newFixedThreadPool(hosts);
        List<Future<Integer>> written = new ArrayList<>();
        try {
            for (int host = 0; host < hosts; host++) {
                int name = host;
                written.add(producers.submit(() -> {
                    int jobs = 0;
                    try (Connection connection = PostgresServer.connect()) {
                        ready.countDown();
                        ready.await(20, TimeUnit.SECONDS);
                        for (int round = 0; round < 30; round++) {
                            int attempt = round;
                            Enqueued enqueued = inTransaction(connection, c -> EnqueueStatements.insert(c, schema,
                                    "emails", List.of(new NewJob(bytes(name + "-" + attempt), null),
                                            new NewJob(bytes(name + "+" + attempt), null)), 4, 1, limit));
                            jobs += enqueued.ids() == null ? 0 : enqueued.ids().size();
                        }
                    }
                    return jobs;
                }));
            }
            int total = 0;
            for (Future<Integer> host : written) {
                total += host.get(60, TimeUnit.SECONDS);
            }
            assertThat(total).isEqualTo(limit);
        } finally {
            producers.shutdownNow();
        }
        assertThat(query("SELECT count(*)::text FROM " + schema + ".messages")).containsExactly(String.valueOf(limit));
    }

    // ---------------------------------------------------------------- support

    private static <R> R inTransaction(Transactions.Work<R> work) throws SQLException {
        return Transactions.run(work);
    }

    private static <R> R inTransaction(Connection connection, Transactions.Work<R> work) throws SQLException {
        return Transactions.run(connection, work);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
