package io.localqueue.bus;

import io.localqueue.CheckpointConflictException;
import io.localqueue.LocalQueueException;
import io.localqueue.QueueFullException;
import io.localqueue.internal.store.CheckpointAdvance;
import io.localqueue.internal.store.Delivered;
import io.localqueue.internal.store.QueueWrites;
import io.localqueue.internal.store.StoredCheckpoint;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * One ingestion: reads a source a batch at a time (never more than one batch ahead), turns each item into an event,
 * and commits each batch's fan-out (inside the bus's dispatch interceptor, which gives its deliveries their headers)
 * in one transaction with its checkpoint's compare-and-swap (checked before the pending limit, so a stale ingester
 * fails rather than waits). A batch that does not fit the pending limit waits for room with a growing pause; one
 * that could never fit is split into order-preserving halves. The first error stops the ingestion; earlier batches
 * stay committed.
 *
 * @param <T> the source's item type
 */
final class Ingestion<T> {

    /** The first pause of a batch waiting for room, growing by half each time up to {@link #MAX_PAUSE_MS}. */
    static final long FIRST_PAUSE_MS = 10;
    static final long MAX_PAUSE_MS = 250;

    /** What an execution adds to each batch's transaction; an ingestion on its own adds nothing. */
    interface BatchHook {
        BatchHook NONE = new BatchHook() {
        };

        /** Runs first in the transaction; throws to refuse the batch (a lost source lease). */
        default void before(QueueWrites writes, long now) {
        }

        /** Runs after the deliveries and the checkpoint were written, in the same transaction. */
        default void after(QueueWrites writes, Fanout.Plan plan, Delivered delivered,
                           @Nullable StoredCheckpoint checkpoint, long items, long now) {
        }
    }

    private final Dispatcher dispatcher;
    private final BusRuntime bus;
    private final SourceReader<T> reader;
    private final @Nullable String checkpoint;
    private final @Nullable String fingerprint;
    private final Function<? super T, ?> transform;
    private final int batchSize;
    private final long maxPending;
    private final BatchHook hook;
    private final BooleanSupplier stop;
    private @Nullable StoredCheckpoint expected;
    private long itemsRead;
    private long eventsDispatched;
    private long eventsUnrouted;
    private long inserted;
    private long deduplicated;
    private long batches;
    private @Nullable String lastCursor;
    private boolean stoppedEarly;

    Ingestion(Dispatcher dispatcher, SourceReader<T> reader, @Nullable String checkpoint, @Nullable String fingerprint,
              @Nullable StoredCheckpoint start, Function<? super T, ?> transform, int batchSize, long maxPending,
              BatchHook hook, BooleanSupplier stop) {
        this.dispatcher = dispatcher;
        this.bus = dispatcher.runtime();
        this.reader = reader;
        this.checkpoint = checkpoint;
        this.fingerprint = fingerprint;
        this.expected = start;
        this.lastCursor = start == null ? null : start.cursor();
        this.transform = transform;
        this.batchSize = batchSize;
        this.maxPending = maxPending;
        this.hook = hook;
        this.stop = stop;
    }

    /** Prepares the ingestion of plain items, each numbered from 1 as its cursor, without a checkpoint. */
    static <T> Ingestion<T> of(Dispatcher dispatcher, Iterable<T> source, Function<? super T, ?> transform) {
        return new Ingestion<>(dispatcher, new NumberedItems<>(source.iterator()), null, null, null, transform,
                SourceConfig.DEFAULT_BATCH_SIZE, 0, BatchHook.NONE, () -> false);
    }

    /**
     * Prepares the ingestion of a resumable source at its checkpoint's cursor, refusing a changed source before it
     * is opened.
     *
     * @throws SourceChangedException when the checkpoint follows a source with another fingerprint
     */
    static <T> Ingestion<T> resumable(Dispatcher dispatcher, ResumableSource<T> source, String checkpoint,
                                      Function<? super T, ?> transform, int batchSize, long maxPending,
                                      BatchHook hook, BooleanSupplier stop) {
        StoredCheckpoint stored = dispatcher.runtime().readCheckpoint(checkpoint);
        String fingerprint = source.fingerprint();
        if (stored != null && !Objects.equals(stored.sourceFingerprint(), fingerprint)) {
            throw sourceChanged(dispatcher.runtime().name(), checkpoint, stored.sourceFingerprint(), fingerprint);
        }
        SourceReader<T> reader = source.open(stored == null ? null : stored.cursor());
        return new Ingestion<>(dispatcher, reader, checkpoint, fingerprint, stored, transform, batchSize, maxPending,
                hook, stop);
    }

    /** The refusal of a source whose fingerprint is not the one its checkpoint follows. */
    static SourceChangedException sourceChanged(String bus, String checkpoint, @Nullable String stored,
                                                @Nullable String given) {
        return new SourceChangedException("checkpoint '" + checkpoint + "' of bus '" + bus + "' follows a source "
                + "with fingerprint " + stored + ", not " + given
                + "; reset the checkpoint to ingest this source from its start");
    }

    /** Tells whether the last run ended because it was told to stop, before the source's end. */
    boolean stopped() {
        return stoppedEarly;
    }

    IngestionResult run() {
        long started = System.nanoTime();
        String startCursor = lastCursor;
        boolean resumed = expected != null;
        try (reader) {
            List<SourceRecord<T>> items = new ArrayList<>(Math.min(batchSize, 10_000));
            while (true) {
                if (stop.getAsBoolean()) {
                    stoppedEarly = true;
                    break;
                }
                items.clear();
                while (items.size() < batchSize && reader.hasNext()) {
                    items.add(reader.next());
                }
                if (items.isEmpty()) {
                    break;
                }
                List<Object> events = new ArrayList<>(items.size());
                for (int i = 0; i < items.size(); i++) {
                    events.add(eventOf(items.get(i).value(), itemsRead + i + 1));
                }
                Fanout.Plan plan;
                try {
                    plan = dispatcher.plan(events, null);
                } catch (InvalidEventIdentityException invalid) {
                    throw located(invalid, items, events);
                }
                dispatcher.intercepted(plan, Map.of(), null, headed -> {
                    dispatcher.requireRouted(headed);
                    commit(items, headed);
                    return null;
                });
            }
        }
        CheckpointProgress progress = checkpoint == null ? null
                : new CheckpointProgress(checkpoint, startCursor, lastCursor, resumed);
        return new IngestionResult(itemsRead, eventsDispatched, eventsUnrouted, inserted, deduplicated, batches,
                Duration.ofNanos(System.nanoTime() - started), progress);
    }

    private Object eventOf(T item, long index) {
        Object event = transform.apply(item);
        if (event == null) {
            throw new IllegalArgumentException("the transform returned null for " + describe(item, index)
                    + "; it must return an event");
        }
        return event;
    }

    /**
     * Names the source item whose event has the invalid identity that refused its batch: the first one of the batch
     * that refuses it alone (nothing of the batch was written).
     */
    private InvalidEventIdentityException located(InvalidEventIdentityException invalid,
                                                  List<SourceRecord<T>> items, List<Object> events) {
        for (int i = 0; i < events.size(); i++) {
            try {
                dispatcher.plan(List.of(events.get(i)), null);
            } catch (InvalidEventIdentityException refused) {
                return new InvalidEventIdentityException(describe(items.get(i).value(), itemsRead + i + 1) + ": "
                        + refused.getMessage() + "; nothing of its batch was committed, and the ingestion stops "
                        + "there until the item is fixed (a fixed file has another fingerprint: reset the checkpoint "
                        + "to read it from its start, and identities keep what was stored from being stored twice)");
            }
        }
        return invalid;
    }

    /** Names a source item by its 1-based position, and a CSV row by its record and line too. */
    private static String describe(Object item, long index) {
        return item instanceof CsvRow row ? "source item " + index + " (CSV record " + row.recordNumber() + ", line "
                + row.lineNumber() + ")" : "source item " + index;
    }

    /** Commits items with their plan, waiting for room or splitting as the pending limit requires. */
    private void commit(List<SourceRecord<T>> items, Fanout.Plan plan) {
        long pause = FIRST_PAUSE_MS;
        String cursor = items.get(items.size() - 1).cursor();
        while (true) {
            Committed committed = bus.write("ingest", writes -> attempt(writes, plan, cursor, items.size()));
            Delivered delivered = committed.delivered();
            if (delivered.written()) {
                expected = committed.checkpoint();
                lastCursor = cursor;
                itemsRead += items.size();
                eventsDispatched += plan.routedEvents();
                eventsUnrouted += plan.unrouted().size();
                long newRows = delivered.inserted().stream().filter(Boolean::booleanValue).count();
                inserted += newRows;
                deduplicated += delivered.inserted().size() - newRows;
                batches++;
                dispatcher.signal(plan);
                return;
            }
            if (delivered.impossible()) {
                if (items.size() == 1) {
                    throw new QueueFullException("a single event exceeds maxPending (" + maxPending + ") on an "
                            + "empty subscription queue '" + delivered.fullQueue() + "'");
                }
                int half = items.size() / 2;
                commit(new ArrayList<>(items.subList(0, half)), plan.slice(0, half));
                commit(new ArrayList<>(items.subList(half, items.size())), plan.slice(half, items.size()));
                return;
            }
            if (stop.getAsBoolean()) {
                throw new IngestionStopped();
            }
            pause(pause);
            pause = Math.min(MAX_PAUSE_MS, pause + pause / 2);
        }
    }

    private Committed attempt(QueueWrites writes, Fanout.Plan plan, String cursor, int items) {
        long now = bus.now();
        if (checkpoint != null) {
            StoredCheckpoint current = writes.bus().checkpoint(bus.name(), checkpoint);
            if (!sameIncarnation(current, expected)) {
                throw conflict();
            }
        }
        hook.before(writes, now);
        Delivered delivered = Fanout.write(writes, plan, now, maxPending);
        if (!delivered.written()) {
            return new Committed(delivered, expected);
        }
        StoredCheckpoint next = null;
        if (checkpoint != null) {
            next = writes.bus().advanceCheckpoint(new CheckpointAdvance(bus.name(), checkpoint, expected, cursor,
                    fingerprint, items, now));
            if (next == null) {
                throw conflict();
            }
        }
        hook.after(writes, plan, delivered, next, items, now);
        return new Committed(delivered, next);
    }

    private CheckpointConflictException conflict() {
        return new CheckpointConflictException("checkpoint '" + checkpoint + "' of bus '" + bus.name()
                + "' moved on since this ingestion read it: another ingestion committed, or it was reset");
    }

    private static boolean sameIncarnation(@Nullable StoredCheckpoint current, @Nullable StoredCheckpoint expected) {
        if (current == null || expected == null) {
            return current == null && expected == null;
        }
        return current.generation().equals(expected.generation()) && current.version() == expected.version();
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new LocalQueueException("interrupted while a batch waited for room under maxPending");
        }
    }

    /** Ends an ingestion told to stop while a batch waited for room; nothing of that batch was written. */
    static final class IngestionStopped extends RuntimeException {
        private static final long serialVersionUID = 1L;

        IngestionStopped() {
            super("the ingestion was told to stop while a batch waited for room", null, false, false);
        }
    }

    /** Plain items as a source reader, each numbered from 1 as its cursor; closes the iterator when it can. */
    private static final class NumberedItems<T> implements SourceReader<T> {
        private final Iterator<T> items;
        private long index;

        NumberedItems(Iterator<T> items) {
            this.items = items;
        }

        @Override
        public boolean hasNext() {
            return items.hasNext();
        }

        @Override
        public SourceRecord<T> next() {
            index++;
            return new SourceRecord<>(items.next(), Long.toString(index));
        }

        @Override
        public void close() {
            if (items instanceof AutoCloseable closeable) {
                try {
                    closeable.close();
                } catch (Exception ignored) {
                    // the ingestion's own outcome is what the caller hears
                }
            }
        }
    }

    /** What one batch's transaction did. */
    record Committed(Delivered delivered, @Nullable StoredCheckpoint checkpoint) {
        Committed {
            Objects.requireNonNull(delivered);
        }
    }
}
