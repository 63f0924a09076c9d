package io.localqueue.bus;

import java.util.function.Function;

/**
 * A resumable source bound to a bus: its checkpoint, the transform that turns each item into an event, and how it
 * ingests; {@link #ingest()} resumes where the checkpoint stands, and {@link EventBus#execute} runs it to completion.
 *
 * @param <T> the source's item type
 * @since 0.1.0
 */
public final class SourceDefinition<T> {

    private final EventBus bus;
    private final SourceSpec<T> spec;

    SourceDefinition(EventBus bus, String name, ResumableSource<T> source, String checkpoint,
                     Function<? super T, ?> transform) {
        this.bus = bus;
        this.spec = new SourceSpec<>(name, source, checkpoint, transform, new SourceConfig());
    }

    /**
     * Returns the definition's name, which identifies its executions with its checkpoint.
     *
     * @return the name
     */
    public String name() {
        return spec.name();
    }

    /**
     * Returns the source.
     *
     * @return the source
     */
    public ResumableSource<T> source() {
        return spec.source();
    }

    /**
     * Returns the checkpoint's name.
     *
     * @return the name
     */
    public String checkpoint() {
        return spec.checkpoint();
    }

    /**
     * Returns the transform.
     *
     * @return the transform
     */
    public Function<? super T, ?> transform() {
        return spec.transform();
    }

    /**
     * Returns how the definition ingests, frozen by its first ingestion.
     *
     * @return the config
     */
    public SourceConfig config() {
        return spec.config();
    }

    /**
     * Returns the bus the definition belongs to.
     *
     * @return the bus
     */
    public EventBus bus() {
        return bus;
    }

    /**
     * Ingests the source from where the checkpoint stands to its end.
     *
     * @return what was committed
     * @throws SourceChangedException when the checkpoint follows a source with another fingerprint
     * @throws io.localqueue.CheckpointConflictException when another ingestion moved the checkpoint meanwhile
     */
    public IngestionResult ingest() {
        spec.config().freeze();
        return bus.ingest(spec.source(), spec.checkpoint(), spec.transform(), spec.config().batchSize(),
                spec.config().maxPending());
    }

    @Override
    public String toString() {
        return "SourceDefinition[" + spec.name() + ", checkpoint " + spec.checkpoint() + "]";
    }

    /** What the definition binds, for the execution of it. */
    SourceSpec<T> spec() {
        return spec;
    }
}
