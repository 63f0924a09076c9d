package io.localqueue;

import java.time.Instant;
import java.util.Map;

/**
 * Rebuilds a {@link Job} from the id and receipt of a delivery made elsewhere, as a process receiving deliveries
 * over a pipe would, so that tests can present another process's (or another queue's) receipt to a queue.
 */
public final class ForeignJobs {

    private ForeignJobs() {
    }

    /**
     * Returns a job bound to {@code queue} carrying the given id and receipt; its payload is null and its lease
     * expiry unknown (the epoch).
     */
    public static <T> Job<T> of(SimpleQueue<T> queue, long id, String receipt) {
        return new Job<>(queue.jobs().engine(), queue.name(), id, null, 0, receipt, Map.of(), Instant.EPOCH,
                Instant.EPOCH, Instant.EPOCH, 0, null);
    }
}
