package io.localqueue.bus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.localqueue.SimpleQueue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Finite executions on a real file: completion over emitted deliveries, failures, timeouts and resumes. */
class ExecutionTest extends BusTestBase {

    @BusEvent(name = "user.requested")
    record UserRequested(int number) {
    }

    @BusEvent(name = "user.created")
    record UserCreated(int number) {
    }



    private EventBus bus() {
        return open(EventBus.builder(database()).executionLease(Duration.ofSeconds(2)).topology(BusTopology.builder()
                .route("requests", UserRequested.class).route("created", UserCreated.class).build()));
    }

    private static List<Integer> numbers(int count) {
        return IntStream.rangeClosed(1, count).boxed().toList();
    }

    private static SourceDefinition<Integer> users(EventBus bus, int count) {
        SourceDefinition<Integer> definition = bus.source(SequenceSource.of(numbers(count), "users-" + count),
                "users", UserRequested::new);
        definition.config().batchSize(10);
        return definition;
    }

    @Test
    void anExecutionCompletesOnceItsDeliveriesAndTheirEmittedOnesAreSettled() {
        EventBus bus = bus();
        Set<Integer> created = ConcurrentHashMap.newKeySet();
        bus.subscription("requests").handler(UserRequested.class,
                (event, context) -> new UserCreated(event.number()));
        bus.subscription("created").handler(UserCreated.class, (event, context) -> {
            created.add(event.number());
            return null;
        });

        ExecutionResult result = bus.execute(users(bus, 50));

        assertThat(result.completed()).isTrue();
        assertThat(result.succeeded()).isTrue();
        assertThat(result.resumed()).isFalse();
        assertThat(result.sourceCompleted()).isTrue();
        assertThat(result.itemsCommitted()).isEqualTo(50);
        assertThat(result.batchesCommitted()).isEqualTo(5);
        assertThat(result.deliveriesInserted()).isEqualTo(50);
        assertThat(result.deliveriesTotal()).as("the source's and the emitted ones").isEqualTo(100);
        assertThat(result.deliveriesAcknowledged()).isEqualTo(100);
        assertThat(result.checkpointGeneration()).isNotNull();
        assertThat(created).containsExactlyInAnyOrderElementsOf(numbers(50));
        assertThat(bus.subscription("requests").config().frozen()).isTrue();
    }

    @Test
    void deadLettersAreReportedAndAReplayReopensTheExecution() {
        EventBus bus = bus();
        Set<Integer> rejected = ConcurrentHashMap.newKeySet();
        bus.subscription("requests").handler(UserRequested.class, (event, context) -> {
            if (event.number() == 3 && rejected.add(3)) {
                throw new RejectException("no such user");
            }
            return null;
        });
        SourceDefinition<Integer> users = users(bus, 5);

        ExecutionResult first = bus.execute(users);

        assertThat(first.completed()).isTrue();
        assertThat(first.deliveriesFailed()).isEqualTo(1);
        assertThatThrownBy(first::throwIfFailures).isInstanceOf(ExecutionFailedException.class)
                .hasMessageEndingWith("completed with 1 failed delivery");
        bus.subscription("requests").retryFailed(bus.subscription("requests").listFailed().get(0).id());

        ExecutionResult again = bus.execute(users);

        assertThat(again.resumed()).isTrue();
        assertThat(again.executionId()).isEqualTo(first.executionId());
        assertThat(again.succeeded()).isTrue();
        assertThat(again.itemsCommitted()).isEqualTo(5);
    }

    @Test
    void aTimedOutExecutionKeepsItsProgressAndTheNextCallResumesIt() throws Exception {
        EventBus bus = bus();
        CountDownLatch release = new CountDownLatch(1);
        Set<Integer> handled = ConcurrentHashMap.newKeySet();
        List<Integer> deliveries = new java.util.concurrent.CopyOnWriteArrayList<>();
        bus.subscription("requests").handler(UserRequested.class, (event, context) -> {
            if (event.number() == 7) {
                release.await(30, TimeUnit.SECONDS);
            }
            deliveries.add(event.number());
            handled.add(event.number());
            return null;
        });
        SourceDefinition<Integer> users = users(bus, 30);

        assertThatThrownBy(() -> bus.execute(users, Duration.ofMillis(300)))
                .isInstanceOf(ExecutionTimeoutException.class).hasMessageContaining("run it again");
        release.countDown();
        ExecutionResult resumed = bus.execute(users);

        assertThat(resumed.resumed()).isTrue();
        assertThat(resumed.succeeded()).isTrue();
        assertThat(resumed.itemsCommitted()).isEqualTo(30);
        assertThat(handled).containsExactlyInAnyOrderElementsOf(numbers(30));
        assertThat(bus.subscription("requests").stats().acked()).isEqualTo(30);
    }

    @Test
    void aRunningExecutionLogsWhereItStandsAtAnInterval() throws Exception {
        ch.qos.logback.classic.Logger logger = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(
                EventBus.class);
        ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> appender =
                new ch.qos.logback.core.read.ListAppender<>();
        appender.start();
        logger.addAppender(appender);
        Duration interval = Execution.progressInterval;
        Execution.progressInterval = Duration.ofMillis(50);
        try {
            EventBus bus = bus();
            CountDownLatch logged = new CountDownLatch(1);
            bus.subscription("requests").handler(UserRequested.class, (event, context) -> {
                if (event.number() == 3) {
                    org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> appender.list
                            .stream().anyMatch(line -> line.getFormattedMessage().contains("items committed")));
                    logged.countDown();
                }
                return null;
            });

            ExecutionResult result = bus.execute(users(bus, 5));

            assertThat(logged.getCount()).isZero();
            assertThat(result.succeeded()).isTrue();
            assertThat(appender.list).anySatisfy(line -> assertThat(line.getFormattedMessage())
                    .contains("items committed").contains("acknowledged"));
        } finally {
            Execution.progressInterval = interval;
            logger.detachAppender(appender);
        }
    }

    @Test
    void stoppingTheBusEndsARunningExecutionAndReleasesItsSourceForTheNextCall() throws Exception {
        endedByTheBus(bus -> bus.stop(Duration.ofSeconds(2)));
    }

    @Test
    void closingTheBusEndsARunningExecutionAndReleasesItsSourceForTheNextCall() throws Exception {
        endedByTheBus(EventBus::close);
    }

    /**
     * Ends an execution whose ingestion waits for room (its handlers hold every pending delivery) and checks that its
     * caller hears it, that its source lease (five minutes long) was released, and that the next call, on another bus
     * object, resumes the execution at once and completes it.
     */
    private void endedByTheBus(java.util.function.Consumer<EventBus> end) throws Exception {
        EventBus first = open(EventBus.builder(database()).executionLease(Duration.ofMinutes(5)));
        CountDownLatch holding = new CountDownLatch(5);
        first.handler(UserRequested.class, "requests", (event, context) -> {
            holding.countDown();
            new CountDownLatch(1).await();
            return null;
        }).config().concurrency(5);
        SourceDefinition<Integer> users = first.source(SequenceSource.of(numbers(30), "users-30"), "users",
                UserRequested::new);
        users.config().batchSize(5).maxPending(5);

        CompletableFuture<ExecutionResult> running = first.executeAsync(users);
        assertThat(holding.await(20, TimeUnit.SECONDS)).isTrue();
        end.accept(first);

        assertThatThrownBy(() -> running.get(20, TimeUnit.SECONDS)).cause()
                .isInstanceOf(ExecutionStoppedException.class).hasMessageContaining("running it again resumes it");
        assertThat(first.runningExecutions()).isEmpty();
        try (java.sql.Connection connection = connect();
             java.sql.ResultSet lease = connection.createStatement().executeQuery(
                     "SELECT COUNT(*) FROM event_bus_execution_runtime WHERE source_receipt IS NOT NULL")) {
            lease.next();
            assertThat(lease.getLong(1)).as("source leases still held").isZero();
        }
        EventBus second = open(EventBus.builder(database()).executionLease(Duration.ofMinutes(5)));
        Set<Integer> handled = ConcurrentHashMap.newKeySet();
        second.handler(UserRequested.class, "requests", (event, context) -> {
            handled.add(event.number());
            return null;
        });
        SourceDefinition<Integer> again = second.source(SequenceSource.of(numbers(30), "users-30"), "users",
                UserRequested::new);
        again.config().batchSize(5);

        ExecutionResult resumed = second.executeAsync(again).get(30, TimeUnit.SECONDS);

        assertThat(resumed.resumed()).isTrue();
        assertThat(resumed.succeeded()).isTrue();
        assertThat(resumed.itemsCommitted()).isEqualTo(30);
        assertThat(handled).containsAll(numbers(30).subList(5, 30));
    }

    @Test
    void withoutHandlersHereAnExecutionWaitsForAnotherConsumerOfTheFile() {
        EventBus producer = bus();
        EventBus consumer = bus();
        consumer.subscription("requests").handler(UserRequested.class, (event, context) -> null);
        consumer.start();

        ExecutionResult result = producer.execute(users(producer, 20));

        assertThat(result.succeeded()).isTrue();
        assertThat(result.deliveriesAcknowledged()).isEqualTo(20);
    }

    @Test
    void unrelatedWorkOnTheBusDoesNotHoldAnExecutionBack() {
        EventBus bus = bus();
        bus.register(UserCreated.class);
        bus.dispatch(new UserCreated(99));
        bus.subscription("requests").handler(UserRequested.class, (event, context) -> null);

        ExecutionResult result = bus.execute(users(bus, 5));

        assertThat(result.succeeded()).isTrue();
        assertThat(bus.subscription("created").stats().ready()).isEqualTo(1);
    }

    @Test
    void executionsStartedTogetherShareOneExecution() throws Exception {
        EventBus first = bus();
        EventBus second = bus();
        first.subscription("requests").handler(UserRequested.class, (event, context) -> null);
        second.subscription("requests").handler(UserRequested.class, (event, context) -> null);

        CompletableFuture<ExecutionResult> one = first.executeAsync(users(first, 40));
        CompletableFuture<ExecutionResult> two = second.executeAsync(users(second, 40));

        ExecutionResult a = one.get(30, TimeUnit.SECONDS);
        ExecutionResult b = two.get(30, TimeUnit.SECONDS);
        assertThat(a.executionId()).isEqualTo(b.executionId());
        assertThat(a.itemsCommitted()).isEqualTo(40);
        assertThat(first.subscription("requests").stats().acked()).isEqualTo(40);
    }

    @Test
    void anExecutionsDeliveriesArePinnedAgainstPurge() {
        EventBus bus = bus();
        bus.subscription("requests").handler(UserRequested.class, (event, context) -> null);
        bus.execute(users(bus, 5));

        try (SimpleQueue<Object> queue = SimpleQueue.builder(database()).name("__bus__:default:requests").build()) {
            assertThat(queue.purge(Duration.ZERO, true)).isZero();
        }
    }

    @Test
    void whatAnExecutionCannotRunIsRefused() {
        EventBus bus = bus();
        bus.ingest(SequenceSource.of(numbers(3), "plain"), "plain", UserRequested::new, 10, 0);

        assertThatThrownBy(() -> bus.execute(bus.source(SequenceSource.of(numbers(3), "plain"), "plain",
                UserRequested::new))).hasMessageContaining("no execution owns it");
        assertThatThrownBy(() -> bus.execute(bus.source(SequenceSource.of(numbers(3)), "unnamed",
                UserRequested::new))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no fingerprint");
        EventBus other = bus();
        assertThatThrownBy(() -> bus.execute(users(other, 3))).isInstanceOf(IllegalArgumentException.class);
        bus.subscription("requests").handler(UserRequested.class, (event, context) -> null);
        bus.execute(users(bus, 3));
        assertThatThrownBy(() -> bus.execute(bus.source(SequenceSource.of(numbers(4), "users-4"), "users",
                UserRequested::new))).isInstanceOf(SourceChangedException.class);
    }
}
