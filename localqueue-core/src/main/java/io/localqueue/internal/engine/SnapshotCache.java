package io.localqueue.internal.engine;

import io.localqueue.internal.store.QueueSnapshot;
import io.localqueue.internal.store.QueueStore;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last snapshot of each queue of one database, shared by every queue object on it, for readers that accept
 * figures of a bounded age instead of paying a count of the queue's jobs on every call.
 *
 * <p>A snapshot younger than the caller's maximum age is returned as it is. An older one is returned at once as well,
 * and one recount starts on the database's {@link BackgroundReads background thread}, at most one per queue at a
 * time; the calls after it finished get its figures. A failed recount keeps the old snapshot, and the next call that
 * finds it too old tries again. Only a queue without any snapshot yet is counted on the calling thread, by one caller
 * while the others wait for it. An exact read ({@link #take}) replaces the snapshot too. Ages are read on the clock of
 * the queue object asking, against the snapshot's {@code observedAt}.
 */
final class SnapshotCache implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SnapshotCache.class);

    private final QueueStore store;
    private final BackgroundReads background;
    private final Map<String, Kept> queues = new ConcurrentHashMap<>();

    SnapshotCache(QueueStore store) {
        this.store = store;
        this.background = new BackgroundReads(store.location());
    }

    /** Takes a snapshot on the calling thread and keeps it for the cached reads. */
    QueueSnapshot take(String queue, Clock clock) {
        return kept(queue).take(clock);
    }

    /**
     * Returns the queue's last snapshot, recounting in the background once it is {@code maxAgeMillis} old or older.
     *
     * @param queue the queue
     * @param clock the clock of the queue object asking, which ages are read on and a recount stamps with
     * @param maxAgeMillis how old the snapshot may be before a recount starts; positive
     * @return the snapshot
     */
    QueueSnapshot recent(String queue, Clock clock, long maxAgeMillis) {
        return kept(queue).recent(clock, maxAgeMillis);
    }

    /** Stops the background thread; the snapshots stay readable. */
    @Override
    public void close() {
        background.close();
    }

    private Kept kept(String queue) {
        return queues.computeIfAbsent(queue, Kept::new);
    }

    /** The last snapshot of one queue and whether a recount of it is under way. */
    private final class Kept {
        private final String queue;
        private final AtomicReference<@Nullable QueueSnapshot> last = new AtomicReference<>();
        private final AtomicBoolean recounting = new AtomicBoolean();
        private final Object firstCount = new Object();

        Kept(String queue) {
            this.queue = queue;
        }

        QueueSnapshot take(Clock clock) {
            QueueSnapshot taken = store.snapshot(queue, clock);
            // Two reads may end out of order; the later observation stays.
            last.accumulateAndGet(taken, (kept, fresh) ->
                    kept == null || fresh.observedAt() >= kept.observedAt() ? fresh : kept);
            return taken;
        }

        QueueSnapshot recent(Clock clock, long maxAgeMillis) {
            QueueSnapshot snapshot = last.get();
            if (snapshot == null) {
                return first(clock);
            }
            if (clock.millis() - snapshot.observedAt() >= maxAgeMillis) {
                recountInBackground(clock);
            }
            return snapshot;
        }

        private QueueSnapshot first(Clock clock) {
            synchronized (firstCount) {
                QueueSnapshot snapshot = last.get();
                return snapshot != null ? snapshot : take(clock);
            }
        }

        private void recountInBackground(Clock clock) {
            if (!recounting.compareAndSet(false, true)) {
                return;
            }
            boolean handedOver = background.submit(() -> {
                try {
                    take(clock);
                } catch (RuntimeException failed) {
                    log.debug("Recounting queue '{}' of {} failed; its last snapshot stays", queue,
                            store.location(), failed);
                } finally {
                    recounting.set(false);
                }
            });
            if (!handedOver) {
                recounting.set(false);
            }
        }
    }
}
