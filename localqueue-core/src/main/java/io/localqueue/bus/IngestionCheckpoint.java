package io.localqueue.bus;

import io.localqueue.internal.store.StoredCheckpoint;
import java.time.Instant;
import java.util.Optional;

/**
 * A named ingestion checkpoint of one bus: where its source stands, shared by every process on the file. Resetting
 * it deletes only the checkpoint (deliveries and identities stay), and a new incarnation fences out ingesters that
 * still hold the old one.
 *
 * @since 0.1.0
 */
public final class IngestionCheckpoint {

    private final BusRuntime bus;
    private final String name;

    IngestionCheckpoint(BusRuntime bus, String name) {
        this.bus = bus;
        this.name = name;
    }

    /**
     * Returns the checkpoint's name.
     *
     * @return the name
     */
    public String name() {
        return name;
    }

    /**
     * Reads the checkpoint.
     *
     * @return its state, or empty when it does not exist
     */
    public Optional<CheckpointState> inspect() {
        StoredCheckpoint stored = bus.readCheckpoint(name);
        return Optional.ofNullable(stored).map(IngestionCheckpoint::state);
    }

    /**
     * Deletes the checkpoint, so the next ingestion starts its source from the beginning; identities already stored
     * still deduplicate what it dispatches again.
     *
     * @return true when it existed
     */
    public boolean reset() {
        return bus.deleteCheckpoint(name);
    }

    static CheckpointState state(StoredCheckpoint stored) {
        return new CheckpointState(stored.cursor(), stored.sourceFingerprint(), stored.version(),
                stored.itemsCommitted(), stored.batchesCommitted(), Instant.ofEpochMilli(stored.createdAt()),
                Instant.ofEpochMilli(stored.updatedAt()));
    }

    @Override
    public String toString() {
        return "IngestionCheckpoint[" + bus.name() + ":" + name + "]";
    }
}
