package io.localqueue.bus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.localqueue.CheckpointConflictException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/** Ingestion on a real file: batches, checkpoints that resume and fence, and the pending limit. */
class IngestionTest extends BusTestBase {

    @BusEvent(name = "row.imported", identity = "key")
    record RowImported(String key, int value) {
    }

    @BusEvent(name = "note.taken")
    record NoteTaken(int number) {
    }




    private EventBus bus() {
        return open(EventBus.builder(database()).topology(BusTopology.builder()
                .route("rows", RowImported.class).route("notes", NoteTaken.class).build()));
    }

    private static List<Integer> numbers(int count) {
        return IntStream.rangeClosed(1, count).boxed().toList();
    }

    @Test
    void eventsAreCommittedOneTransactionPerBatch() {
        EventBus bus = bus();

        IngestionResult result = bus.ingest(numbers(2_500).stream().map(NoteTaken::new).toList());

        assertThat(result.itemsRead()).isEqualTo(2_500);
        assertThat(result.eventsDispatched()).isEqualTo(2_500);
        assertThat(result.deliveriesInserted()).isEqualTo(2_500);
        assertThat(result.batchesCommitted()).isEqualTo(3);
        assertThat(result.checkpoint()).isNull();
        assertThat(bus.subscription("notes").stats().ready()).isEqualTo(2_500);
    }

    @Test
    void aFailedIngestionKeepsItsCommittedBatchesAndTheNextRunResumesAfterThem() {
        EventBus bus = bus();
        SequenceSource<Integer> source = SequenceSource.of(numbers(10), "ten-numbers");
        AtomicInteger transformed = new AtomicInteger();

        assertThatThrownBy(() -> bus.ingest(source, "numbers", number -> {
            transformed.incrementAndGet();
            if (number == 8) {
                throw new IllegalStateException("bad row 8");
            }
            return new NoteTaken(number);
        }, 3, 0)).hasMessage("bad row 8");
        assertThat(bus.subscription("notes").stats().ready()).isEqualTo(6);
        assertThat(bus.checkpoint("numbers").inspect()).hasValueSatisfying(state -> {
            assertThat(state.cursor()).isEqualTo("6");
            assertThat(state.itemsCommitted()).isEqualTo(6);
            assertThat(state.batchesCommitted()).isEqualTo(2);
            assertThat(state.version()).isEqualTo(2);
            assertThat(state.sourceFingerprint()).isEqualTo("ten-numbers");
        });

        IngestionResult resumed = bus.ingest(source, "numbers", NoteTaken::new, 3, 0);

        assertThat(resumed.itemsRead()).isEqualTo(4);
        assertThat(resumed.checkpoint()).isEqualTo(new CheckpointProgress("numbers", "6", "10", true));
        assertThat(bus.subscription("notes").stats().ready()).isEqualTo(10);
        assertThat(bus.checkpoint("numbers").inspect().orElseThrow().itemsCommitted()).isEqualTo(10);
    }

    @Test
    void aSourceWithAnotherFingerprintIsRefusedBeforeItIsOpened() {
        EventBus bus = bus();
        bus.ingest(SequenceSource.of(numbers(3), "v1"), "numbers", NoteTaken::new, 10, 0);
        AtomicInteger opened = new AtomicInteger();
        ResumableSource<Integer> changed = new ResumableSource<>() {
            @Override
            public String fingerprint() {
                return "v2";
            }

            @Override
            public SourceReader<Integer> open(@Nullable String cursor) {
                opened.incrementAndGet();
                return SequenceSource.of(numbers(3)).open(cursor);
            }
        };

        assertThatThrownBy(() -> bus.ingest(changed, "numbers", NoteTaken::new, 10, 0))
                .isInstanceOf(SourceChangedException.class).hasMessageContaining("v1").hasMessageContaining("v2");
        assertThat(opened).hasValue(0);
    }

    @Test
    void anIngesterWhoseCheckpointMovedOnFailsAndItsBatchRollsBack() {
        EventBus bus = bus();
        SequenceSource<Integer> source = SequenceSource.of(numbers(4));
        AtomicInteger calls = new AtomicInteger();

        assertThatThrownBy(() -> bus.ingest(source, "numbers", number -> {
            if (calls.incrementAndGet() == 1) {
                bus.ingest(SequenceSource.of(numbers(2)), "numbers", n -> new NoteTaken(100 + n), 10, 0);
            }
            return new NoteTaken(number);
        }, 10, 0)).isInstanceOf(CheckpointConflictException.class);

        assertThat(bus.subscription("notes").stats().ready()).as("only the other ingester's two").isEqualTo(2);
    }

    @Test
    void resettingACheckpointStartsTheSourceOverAndIdentitiesStillDeduplicate() {
        EventBus bus = bus();
        SequenceSource<Integer> source = SequenceSource.of(numbers(5));
        bus.ingest(source, "rows", n -> new RowImported("k" + n, n), 2, 0);
        assertThat(bus.checkpoint("rows").reset()).isTrue();
        assertThat(bus.checkpoint("rows").inspect()).isEmpty();
        assertThat(bus.checkpoint("rows").reset()).isFalse();

        IngestionResult again = bus.ingest(source, "rows", n -> new RowImported("k" + n, n), 2, 0);

        assertThat(again.checkpoint().resumed()).isFalse();
        assertThat(again.deliveriesInserted()).isZero();
        assertThat(again.deliveriesDeduplicated()).isEqualTo(5);
        assertThat(bus.subscription("rows").stats().ready()).isEqualTo(5);
    }

    @Test
    void batchesWaitForRoomUnderMaxPendingAndAnOversizedOneIsSplitInOrder() {
        EventBus bus = bus();
        List<Integer> handled = new java.util.concurrent.CopyOnWriteArrayList<>();
        bus.subscription("notes").handler(NoteTaken.class, (event, context) -> {
            handled.add(event.number());
            return null;
        });
        bus.start();

        IngestionResult result = bus.ingest(SequenceSource.of(numbers(40)), "bounded", NoteTaken::new, 8, 3);

        assertThat(result.itemsRead()).isEqualTo(40);
        assertThat(result.batchesCommitted()).as("each batch of 8 split into quarters of 2")
                .isEqualTo(20);
        await().atMost(10, TimeUnit.SECONDS).until(() -> handled.size() == 40);
        assertThat(handled).containsExactlyInAnyOrderElementsOf(numbers(40));
    }

    @Test
    void aBatchOfDuplicatesPassesAFullSubscription() {
        EventBus bus = bus();

        IngestionResult result = bus.ingest(SequenceSource.of(numbers(1_000)), "same", n -> new RowImported("k", 1),
                100, 1);

        assertThat(result.deliveriesInserted()).isEqualTo(1);
        assertThat(result.deliveriesDeduplicated()).isEqualTo(999);
        assertThat(bus.subscription("rows").stats().ready()).isEqualTo(1);
    }

    @Test
    void unroutedEventsAreCountedAndStillMoveTheCheckpoint() {
        EventBus bus = open(EventBus.builder(database()).requireSubscribers(false));

        IngestionResult result = bus.ingest(SequenceSource.of(numbers(5)), "nowhere", NoteTaken::new, 2, 0);

        assertThat(result.eventsUnrouted()).isEqualTo(5);
        assertThat(result.eventsDispatched()).isZero();
        assertThat(result.batchesCommitted()).isEqualTo(3);
        assertThat(bus.checkpoint("nowhere").inspect().orElseThrow().cursor()).isEqualTo("5");
    }

    @Test
    void anUnroutedEventStopsARequiringBusAfterTheBatchesBeforeIt() {
        EventBus bus = open(EventBus.builder(database()).topology(BusTopology.builder()
                .route("notes", NoteTaken.class).build()));

        assertThatThrownBy(() -> bus.ingest(SequenceSource.of(numbers(5)), "mixed",
                n -> n == 4 ? new RowImported("k", n) : new NoteTaken(n), 2, 0))
                .isInstanceOf(NoSubscribersException.class);
        assertThat(bus.subscription("notes").stats().ready()).isEqualTo(2);
    }

    @Test
    void badArgumentsAreRefusedBeforeAnythingIsRead() {
        EventBus bus = bus();
        SequenceSource<Integer> source = SequenceSource.of(numbers(2));

        assertThatThrownBy(() -> bus.ingest(source, "c", NoteTaken::new, 0, 0))
                .hasMessageContaining("batchSize");
        assertThatThrownBy(() -> bus.ingest(source, "c", NoteTaken::new, 1, -1))
                .hasMessageContaining("maxPending");
        assertThatThrownBy(() -> bus.ingest(source, " ", NoteTaken::new, 1, 0))
                .hasMessageContaining("checkpoint");
        assertThatThrownBy(() -> bus.ingest(numbers(2), n -> null)).hasMessageContaining("source item 1");
        assertThatThrownBy(() -> bus.source(source, "c", NoteTaken::new).config().batchSize(0))
                .hasMessageContaining("batchSize");
    }

    @Test
    void aSourceDefinitionFreezesItsConfigOnFirstUse() {
        EventBus bus = bus();
        SourceDefinition<Integer> numbers = bus.source(SequenceSource.of(numbers(3)), "numbers", NoteTaken::new);
        numbers.config().batchSize(2);

        IngestionResult result = numbers.ingest();

        assertThat(result.batchesCommitted()).isEqualTo(2);
        assertThatThrownBy(() -> numbers.config().batchSize(5)).isInstanceOf(IllegalStateException.class);
    }
}
