package io.localqueue.benchmark;

import io.localqueue.DeliveryPolicy;
import io.localqueue.DurabilityMode;
import io.localqueue.EnqueueItem;
import io.localqueue.SimpleQueue;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * What every scenario of one run shares: the profile, the durability modes, the store that keeps the queues, the work
 * directory in which each scenario gets fresh queue directories (on PostgreSQL, each directory names a fresh schema),
 * and the progress output.
 */
public final class RunContext {

    /** The delivery policy of every benchmark queue: leases long enough that none expires during a run. */
    public static final DeliveryPolicy DELIVERY = new DeliveryPolicy(Duration.ofMinutes(10), 3);

    private static final int PRELOAD_BATCH = 1_000;

    private final Profile profile;
    private final List<DurabilityMode> modes;
    private final BenchStore store;
    private final Path workRoot;
    private final Consumer<String> progress;
    private final AtomicInteger directories = new AtomicInteger();

    /**
     * Creates the context.
     *
     * @param profile the sizes
     * @param modes the durability modes to measure, in order
     * @param workRoot an existing directory for queue files
     * @param progress where progress lines go
     */
    public RunContext(Profile profile, List<DurabilityMode> modes, Path workRoot, Consumer<String> progress) {
        this(profile, modes, BenchStore.Sqlite.INSTANCE, workRoot, progress);
    }

    /**
     * Creates the context of a run on a store.
     *
     * @param profile the sizes
     * @param modes the durability modes to measure, in order
     * @param store where the queues are kept
     * @param workRoot an existing directory for queue files
     * @param progress where progress lines go
     */
    public RunContext(Profile profile, List<DurabilityMode> modes, BenchStore store, Path workRoot,
                      Consumer<String> progress) {
        this.profile = profile;
        this.modes = List.copyOf(modes);
        this.store = store;
        this.workRoot = workRoot;
        this.progress = progress;
    }

    /**
     * Returns where the run's queues are kept.
     *
     * @return the store
     */
    public BenchStore store() {
        return store;
    }

    /**
     * Opens a benchmark queue of {@link BenchMessage} payloads on the run's store.
     *
     * @param directory the scenario directory (on PostgreSQL, the name of its schema)
     * @param name the queue name
     * @param mode the durability mode
     * @return the open queue
     */
    public SimpleQueue<BenchMessage> queue(Path directory, String name, DurabilityMode mode) {
        return store.openQueue(directory, name, mode);
    }

    /**
     * Opens a benchmark queue on the run's store with settings of the scenario's own.
     *
     * @param directory the scenario directory
     * @param name the queue name
     * @param mode the durability mode
     * @param configure adds the scenario's settings to the builder
     * @return the open queue
     */
    public SimpleQueue<BenchMessage> queue(Path directory, String name, DurabilityMode mode,
                                           UnaryOperator<SimpleQueue.Builder<BenchMessage>> configure) {
        return store.openQueue(directory, name, mode, configure);
    }

    /**
     * Returns the sizes.
     *
     * @return the profile
     */
    public Profile profile() {
        return profile;
    }

    /**
     * Returns the durability modes measured, in order.
     *
     * @return the modes
     */
    public List<DurabilityMode> modes() {
        return modes;
    }

    /**
     * Returns the work directory.
     *
     * @return the root of every queue directory of the run
     */
    public Path workRoot() {
        return workRoot;
    }

    /**
     * Creates a new, empty directory for one scenario's files.
     *
     * @param label a short name, part of the directory name
     * @return the directory
     * @throws IOException when it cannot be created
     */
    public Path newDirectory(String label) throws IOException {
        String safe = label.replaceAll("[^A-Za-z0-9._-]", "_");
        return Files.createDirectories(workRoot.resolve(String.format("%03d-%s", directories.incrementAndGet(), safe)));
    }

    /**
     * Opens a benchmark queue of {@link BenchMessage} payloads in a SQLite file.
     *
     * @param directory the queue directory
     * @param name the queue name
     * @param mode the durability mode
     * @return the open queue
     */
    public static SimpleQueue<BenchMessage> openQueue(Path directory, String name, DurabilityMode mode) {
        return SimpleQueue.builder(directory, BenchMessage.class).name(name).delivery(DELIVERY).durability(mode)
                .build();
    }

    /**
     * Reports progress.
     *
     * @param line one line of text
     */
    public void progress(String line) {
        progress.accept(line);
    }
    /**
     * Puts {@code jobs} jobs in batches of 1,000, outside any measured region.
     *
     * @param queue the queue
     * @param jobs how many
     */
    public static void preload(SimpleQueue<BenchMessage> queue, int jobs) {
        long now = System.nanoTime();
        for (int done = 0; done < jobs; done += PRELOAD_BATCH) {
            int size = Math.min(PRELOAD_BATCH, jobs - done);
            List<EnqueueItem<BenchMessage>> items = new ArrayList<>(size);
            for (int i = 0; i < size; i++) {
                items.add(EnqueueItem.of(BenchMessage.of(done + i, now)));
            }
            queue.putMany(items);
        }
    }
}
