package io.localqueue.bus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.localqueue.IntegrityCheckMode;
import io.localqueue.LocalQueueException;
import io.localqueue.TestClock;
import io.localqueue.TestDatabases;
import io.localqueue.storage.RawSqlite;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Deleting complete executions: their deliveries (and the ones their handlers emitted) become purgeable, dead letters
 * and checkpoints stay, an incomplete execution is kept with a refusal that says why, and a re-run is refused rather
 * than importing twice.
 */
class ExecutionDeletionTest extends BusTestBase {

    private static final Duration BOUND = Duration.ofSeconds(30);

    @BusEvent(name = "user.requested")
    record UserRequested(int number) {
    }

    @BusEvent(name = "user.created")
    record UserCreated(int number) {
    }

    private EventBus bus() {
        return open(builder());
    }

    private EventBus.Builder builder() {
        return EventBus.builder(database()).topology(BusTopology.builder().route("requests", UserRequested.class)
                .route("created", UserCreated.class).build());
    }

    private static <E> SourceDefinition<Integer> source(EventBus bus, String checkpoint, int count,
                                                        Function<Integer, E> transform) {
        SourceDefinition<Integer> definition = bus.source(SequenceSource.of(IntStream.rangeClosed(1, count).boxed()
                .toList(), checkpoint + "-" + count), checkpoint, transform::apply);
        definition.config().batchSize(10);
        return definition;
    }

    private static SourceDefinition<Integer> users(EventBus bus, int count) {
        return source(bus, "users", count, UserRequested::new);
    }

    /** Purges a subscription's acknowledged deliveries, and its dead letters when asked. */
    private static int purge(EventBus bus, String subscription, boolean includeFailed) {
        return bus.subscription(subscription).purge(Duration.ZERO, includeFailed);
    }

    @Test
    void aDeletedExecutionsDeliveriesAndTheOnesTheirHandlersEmittedCanBePurged() {
        EventBus bus = bus();
        bus.subscription("requests").handler(UserRequested.class, (event, context) -> new UserCreated(event.number()));
        bus.subscription("created").handler(UserCreated.class, (event, context) -> null);
        ExecutionResult result = bus.execute(users(bus, 30));
        assertThat(purge(bus, "requests", true)).as("kept while the execution exists").isZero();
        assertThat(bus.executions()).singleElement().satisfies(listed -> {
            assertThat(listed.executionId()).isEqualTo(result.executionId());
            assertThat(listed.checkpointName()).isEqualTo("users");
            assertThat(listed.sourceName()).isEqualTo("users");
            assertThat(listed.completed()).isTrue();
            assertThat(listed.completedAt()).isEqualTo(result.completedAt());
            assertThat(listed.itemsCommitted()).isEqualTo(30);
            assertThat(listed.deliveriesInserted()).isEqualTo(30);
        });
        int batchSize = ExecutionDeletions.batchSize;
        ExecutionDeletions.batchSize = 7;
        try {
            assertThat(bus.deleteExecution(result.executionId())).isTrue();
        } finally {
            ExecutionDeletions.batchSize = batchSize;
        }

        assertThat(bus.executions()).isEmpty();
        assertThat(purge(bus, "requests", false)).isEqualTo(30);
        assertThat(purge(bus, "created", false)).as("the emitted ones").isEqualTo(30);
        assertThat(bus.checkpoint("users").inspect()).as("the checkpoint stays").isPresent();
        assertThat(bus.deleteExecution(result.executionId())).as("deleted already").isFalse();
        database().vacuum();
        assertThat(bus.subscription("requests").stats().acked()).isZero();
    }

    @Test
    void deadLettersOfADeletedExecutionStayUntilPurgedWithThemAndAReplayReopensNothing() {
        EventBus bus = bus();
        bus.subscription("requests").handler(UserRequested.class, (event, context) -> {
            if (event.number() == 3) {
                throw new RejectException("no such user");
            }
            return null;
        });
        ExecutionResult result = bus.execute(users(bus, 5));
        assertThat(result.deliveriesFailed()).isEqualTo(1);

        assertThat(bus.deleteExecution(result.executionId())).isTrue();

        assertThat(purge(bus, "requests", false)).isEqualTo(4);
        Subscription requests = bus.subscription("requests");
        List<FailedDelivery> dead = requests.listFailed();
        assertThat(dead).singleElement().satisfies(letter -> assertThat(letter.lastError()).contains("no such user"));
        requests.retryFailed(dead.get(0).id());
        assertThat(requests.stats().ready()).isEqualTo(1);
        assertThat(bus.executions()).as("no execution reopened").isEmpty();
        bus.register(UserCreated.class);
        bus.dispatch(new UserCreated(9));
        assertThat(purge(bus, "created", true)).as("ready deliveries are not purged").isZero();
    }

    @Test
    void aDeadLetterOfADeletedExecutionIsPurgedWithTheDeadLetters() {
        EventBus bus = bus();
        bus.subscription("requests").handler(UserRequested.class, (event, context) -> {
            throw new RejectException("no such user");
        });
        ExecutionResult result = bus.execute(users(bus, 3));

        assertThat(bus.deleteExecution(result.executionId())).isTrue();

        assertThat(purge(bus, "requests", false)).isZero();
        assertThat(purge(bus, "requests", true)).isEqualTo(3);
        assertThat(bus.subscription("requests").listFailed()).isEmpty();
    }

    @Test
    @Tag(TestDatabases.FILE_ONLY)
    void aDeletedImportPurgedAndVacuumedGivesItsPagesBackAndLeavesTheLayoutAsPythonDeclaresIt() throws Exception {
        EventBus bus = bus();
        bus.subscription("requests").handler(UserRequested.class, (event, context) -> new UserCreated(event.number()));
        bus.subscription("created").handler(UserCreated.class, (event, context) -> null);
        ExecutionResult result = bus.execute(users(bus, 2_000));
        Path file = database().file();
        Map<String, String> layout = RawSqlite.schema(file);
        long pagesBefore = ((Number) RawSqlite.pragma(file, "page_count")).longValue();

        bus.deleteExecution(result.executionId());
        assertThat(purge(bus, "requests", true) + purge(bus, "created", true)).isEqualTo(4_000);
        database().vacuum();

        long pagesAfter = ((Number) RawSqlite.pragma(file, "page_count")).longValue();
        assertThat(pagesAfter).as("pages after, of %d before", pagesBefore).isLessThan(pagesBefore / 4);
        assertThat(Files.size(file)).as("the file itself, not only its write-ahead log")
                .isEqualTo(pagesAfter * ((Number) RawSqlite.pragma(file, "page_size")).longValue());
        assertThat(RawSqlite.schema(file)).isEqualTo(layout);
        assertThat(RawSqlite.query(file, "SELECT COUNT(*) AS n FROM event_bus_execution_deliveries"))
                .containsExactly(Map.of("n", 0L));
        assertThat(RawSqlite.query(file, "SELECT COUNT(*) AS n FROM event_bus_delivery_edges"))
                .as("the edges went with their deliveries").containsExactly(Map.of("n", 0L));
        assertThat(database().checkIntegrity(IntegrityCheckMode.FULL, 10).ok()).as("foreign keys included").isTrue();
    }

    @Test
    void anExecutionWhoseSourceIsStillReadIsKeptAndTheRefusalSaysSo() throws Exception {
        EventBus runner = bus();
        EventBus other = bus();
        SourceDefinition<Integer> users = users(runner, 30);
        users.config().batchSize(5).maxPending(5);
        CompletableFuture<ExecutionResult> running = runner.executeAsync(users);   // nobody consumes: room for 5
        await().atMost(BOUND).until(() -> other.executions().size() == 1
                && other.executions().get(0).itemsCommitted() == 5);
        UUID id = other.executions().get(0).executionId();

        assertThatThrownBy(() -> other.deleteExecution(id)).isInstanceOf(IllegalStateException.class)
                .hasMessage("execution " + id + " of checkpoint 'users' is not complete: its source is still being "
                        + "read (5 items committed so far); delete it once it has completed");
        assertThatThrownBy(() -> runner.deleteExecution(id)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("a call of execute in this process runs it");
        runner.stop(Duration.ofSeconds(5));
        assertThatThrownBy(() -> running.get(20, TimeUnit.SECONDS)).cause()
                .isInstanceOf(ExecutionStoppedException.class);
        assertThatThrownBy(() -> other.deleteExecution(id)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("its source is still being read");
        assertThat(other.executions()).hasSize(1);
    }

    @Test
    void anExecutionWithDeliveriesLeftIsKeptUntilTheyAreSettled() throws Exception {
        EventBus producer = bus();
        CompletableFuture<ExecutionResult> running = producer.executeAsync(users(producer, 10));   // no handler here
        await().atMost(BOUND).until(() -> producer.executions().size() == 1
                && producer.executions().get(0).sourceCompletedAt() != null);
        producer.stop(Duration.ofSeconds(5));
        assertThatThrownBy(() -> running.get(20, TimeUnit.SECONDS)).cause()
                .isInstanceOf(ExecutionStoppedException.class);
        UUID id = producer.executions().get(0).executionId();

        assertThatThrownBy(() -> producer.deleteExecution(id)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("is not complete: 10 of its deliveries are ready (delayed retries included) "
                        + "and 0 in progress");
        assertThat(producer.executions().get(0).completed()).isFalse();

        EventBus consumer = bus();
        consumer.subscription("requests").handler(UserRequested.class, (event, context) -> null);
        consumer.start();
        await().atMost(BOUND).until(() -> consumer.subscription("requests").stats().acked() == 10);
        consumer.stop();

        assertThat(producer.deleteExecution(id)).as("complete, though no execute call saw it so").isTrue();
        assertThat(purge(producer, "requests", false)).isEqualTo(10);
    }

    @Test
    void retentionDeletesCompletedExecutionsAndThenTheirAcknowledgedDeliveriesOnceOldEnough() {
        TestClock clock = new TestClock();
        EventBus bus = open(builder().clock(clock).retention(Duration.ofHours(1), null));
        bus.subscription("requests").handler(UserRequested.class, (event, context) -> null);
        bus.execute(users(bus, 30));

        assertThat(bus.runRetention("requests")).as("an hour not yet past").isZero();
        assertThat(bus.executions()).hasSize(1);
        clock.advance(Duration.ofHours(1).plusMillis(1));

        assertThat(bus.runRetention("requests")).isEqualTo(30);
        assertThat(bus.executions()).isEmpty();
        assertThat(bus.subscription("requests").stats().acked()).isZero();
    }

    @Test
    void anUnknownIdDeletesNothing() {
        EventBus bus = bus();
        bus.subscription("requests").handler(UserRequested.class, (event, context) -> null);
        ExecutionResult result = bus.execute(users(bus, 3));
        EventBus otherBus = open(builder().name("other"));

        assertThat(bus.deleteExecution(UUID.randomUUID())).isFalse();
        assertThat(otherBus.deleteExecution(result.executionId())).as("another bus's").isFalse();
        assertThat(otherBus.executions()).isEmpty();
        assertThatThrownBy(() -> bus.deleteExecution(null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("executionId");
        assertThatThrownBy(() -> bus.deleteCompletedExecutions(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("olderThan");
        assertThat(bus.executions()).hasSize(1);
    }

    @Test
    void runningADeletedExecutionsDefinitionAgainIsRefusedUntilItsCheckpointIsReset() {
        EventBus bus = bus();
        List<Integer> handled = new CopyOnWriteArrayList<>();
        bus.subscription("requests").handler(UserRequested.class, (event, context) -> {
            handled.add(event.number());
            return null;
        });
        ExecutionResult first = bus.execute(users(bus, 10));
        bus.deleteExecution(first.executionId());
        purge(bus, "requests", true);

        assertThatThrownBy(() -> bus.execute(users(bus, 10))).isInstanceOf(LocalQueueException.class)
                .hasMessageContaining("stands after 10 items of its source, but no execution owns it")
                .hasMessageContaining("completed and was deleted");
        assertThat(handled).hasSize(10);
        assertThat(bus.subscription("requests").stats()).satisfies(stats ->
                assertThat(stats.ready() + stats.processing() + stats.acked() + stats.failed()).isZero());

        assertThat(bus.checkpoint("users").reset()).isTrue();
        ExecutionResult again = bus.execute(users(bus, 10));

        assertThat(again.executionId()).isNotEqualTo(first.executionId());
        assertThat(again.resumed()).isFalse();
        assertThat(handled).as("a reset imports the source again").hasSize(20);
    }

    @Test
    void completedExecutionsOlderThanAnAgeAreDeletedAndTheOthersKept() throws Exception {
        TestClock clock = new TestClock();
        EventBus bus = open(builder().clock(clock));
        bus.subscription("requests").handler(UserRequested.class, (event, context) -> null);
        ExecutionResult old = bus.execute(users(bus, 5));
        clock.advance(Duration.ofHours(2));
        ExecutionResult recent = bus.execute(source(bus, "recent", 5, UserRequested::new));
        CompletableFuture<ExecutionResult> unhandled = bus.executeAsync(source(bus, "created", 5, UserCreated::new));
        await().atMost(BOUND).until(() -> bus.executions().stream().anyMatch(listed ->
                listed.checkpointName().equals("created") && listed.sourceCompletedAt() != null));
        bus.stop(Duration.ofSeconds(5));
        assertThatThrownBy(() -> unhandled.get(20, TimeUnit.SECONDS)).cause()
                .isInstanceOf(ExecutionStoppedException.class);

        assertThat(bus.deleteCompletedExecutions(Duration.ofHours(1))).isEqualTo(1);
        assertThat(bus.executions()).extracting(ExecutionSummary::checkpointName)
                .containsExactlyInAnyOrder("recent", "created");
        assertThat(bus.deleteCompletedExecutions(Duration.ZERO)).isEqualTo(1);
        assertThat(bus.executions()).singleElement().satisfies(left -> {
            assertThat(left.checkpointName()).isEqualTo("created");
            assertThat(left.completed()).isFalse();
        });
        assertThat(List.of(old.executionId(), recent.executionId())).doesNotContainAnyElementsOf(
                bus.executions().stream().map(ExecutionSummary::executionId).toList());
        clock.advance(Duration.ofMillis(1));   // a purge takes rows changed before its cutoff
        assertThat(purge(bus, "requests", false)).isEqualTo(10);
    }
}
