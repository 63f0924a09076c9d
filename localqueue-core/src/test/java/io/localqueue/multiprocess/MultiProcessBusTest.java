package io.localqueue.multiprocess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.localqueue.bus.EventBus;
import io.localqueue.bus.ExecutionResult;
import java.nio.file.Files;
import java.nio.file.Path;
import io.localqueue.testsupport.ChildProcess;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Bus processes sharing one file: a subscription is one consumer group, and an identity is stored once. */
class MultiProcessBusTest extends MultiProcessTestBase {

    private static final int EVENTS = 60;

    @Test
    void twoConsumerProcessesOfASubscriptionHandleEveryEventOnce() {
        List<ChildProcess> consumers = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            consumers.add(children.start("bus-consumer-" + i, BusChild.class, BusChild.CONSUME, dir, 2, 5));
        }
        consumers.forEach(consumer -> consumer.expect(QueueChild.READY));
        ChildProcesses.sendAll(consumers, QueueChild.GO);
        try (EventBus bus = EventBus.builder(dir).topology(BusChild.topology()).build()) {
            for (int i = 0; i < EVENTS; i++) {
                bus.dispatch(new BusChild.OrderPlaced("order-" + i, i));
            }
            await().atMost(Duration.ofSeconds(60)).until(() -> acked(bus) == EVENTS);
        }
        List<String> handled = new ArrayList<>();
        Map<String, Integer> perConsumer = new LinkedHashMap<>();
        for (ChildProcess consumer : consumers) {
            consumer.send(QueueChild.STOP);
            int mine = 0;
            for (String line : consumer.linesUntilExit(ChildProcesses.DEFAULT_WAIT)) {
                String[] words = line.split(" ");
                if (words[0].equals(QueueChild.HANDLED)) {
                    assertThat(words[3]).as("a first delivery: %s", line).isEqualTo("1");
                    handled.add(words[1]);
                    mine++;
                } else if (words[0].equals(QueueChild.DONE)) {
                    assertThat(Integer.parseInt(words[1])).isEqualTo(mine);
                }
            }
            perConsumer.put(consumer.label(), mine);
            consumer.awaitSuccess();
        }

        assertThat(handled).as("handled across consumers %s", perConsumer).hasSize(EVENTS).doesNotHaveDuplicates();
        assertThat(perConsumer.values()).as("both consumers took part: %s", perConsumer)
                .allSatisfy(count -> assertThat(count).isPositive());
    }

    @Test
    void processesDispatchingTheSameIdentitiesAtOnceLeaveOneRowPerSubscription() throws SQLException {
        List<ChildProcess> producers = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            producers.add(children.start("bus-producer-" + i, BusChild.class, BusChild.DISPATCH_IDENTITIES, dir,
                    EVENTS));
        }
        producers.forEach(producer -> producer.expect(QueueChild.READY));
        ChildProcesses.sendAll(producers, QueueChild.GO);
        int inserted = 0;
        for (ChildProcess producer : producers) {
            for (String line : producer.linesUntilExit(ChildProcesses.DEFAULT_WAIT)) {
                String[] words = line.split(" ");
                if (words[0].equals(QueueChild.PUT)) {
                    inserted += Integer.parseInt(words[2]);
                }
            }
            producer.awaitSuccess();
        }

        assertThat(inserted).as("deliveries reported new across both producers").isEqualTo(2 * EVENTS);
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("localqueue.db"));
             Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT queue, COUNT(*), COUNT(DISTINCT dedup_key) FROM messages"
                     + " GROUP BY queue ORDER BY queue")) {
            List<String> counts = new ArrayList<>();
            while (rows.next()) {
                counts.add(rows.getString(1) + "=" + rows.getLong(2) + "/" + rows.getLong(3));
            }
            assertThat(counts).containsExactly("__bus__:default:audit=60/60", "__bus__:default:orders=60/60");
        }
    }

    @Test
    void anExecutionKilledAfterCommittedBatchesResumesWithoutReadingThemAgain() throws Exception {
        Path csv = dir.resolve("rows.csv");
        StringBuilder content = new StringBuilder("external_id\n");
        for (int i = 1; i <= 300; i++) {
            content.append("row-").append(i).append('\n');
        }
        Files.writeString(csv, content.toString());
        Path queue = dir.resolve("queue");
        ChildProcess importer = children.start("bus-importer", BusChild.class, BusChild.EXECUTE_CSV, queue, csv,
                1_000, 10);
        importer.expect(QueueChild.READY);
        importer.send(QueueChild.GO);
        try (EventBus bus = BusChild.importingBus(queue, Duration.ofSeconds(1))) {
            await().atMost(Duration.ofSeconds(60)).until(() -> bus.checkpoint("rows").inspect()
                    .map(state -> state.itemsCommitted() >= 100).orElse(false));
            importer.killHard();
            long committedBeforeKill = bus.checkpoint("rows").inspect().orElseThrow().itemsCommitted();
            assertThat(committedBeforeKill).isLessThan(300);

            ExecutionResult resumed = bus.execute(BusChild.csvImport(bus, csv, Duration.ZERO));

            assertThat(resumed.resumed()).isTrue();
            assertThat(resumed.succeeded()).isTrue();
            assertThat(resumed.itemsCommitted()).isEqualTo(300);
            assertThat(resumed.deliveriesTotal()).isEqualTo(300);
            assertThat(bus.subscription(BusChild.IMPORTS).stats().acked()).as("each row once, %d before the kill",
                    committedBeforeKill).isEqualTo(300);
        }
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + queue.resolve("localqueue.db"));
             Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT COUNT(DISTINCT json_extract(payload, '$.payload"
                     + ".externalId')) FROM messages WHERE queue = '__bus__:default:imports'")) {
            rows.next();
            assertThat(rows.getLong(1)).isEqualTo(300);
        }
    }

    private static long acked(EventBus bus) {
        return bus.subscription(BusChild.SUBSCRIPTION).stats().acked();
    }
}
