package io.localqueue.benchmark;

import io.localqueue.DurabilityMode;
import io.localqueue.SimpleQueue;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * Where a run keeps its queues: SQLite files in the scenarios' directories, or a schema per scenario directory on a
 * PostgreSQL server. Scenarios that run on both ask the run's store for their queues and their raw baseline; child
 * JVMs get the store's settings with their own, so they reach the same queues.
 */
public interface BenchStore {

    /** The store names {@code --store} takes. */
    List<String> NAMES = List.of(Sqlite.NAME, PostgresBenchStore.NAME);

    /** The child setting that names the store; absent means SQLite. */
    String STORE_SETTING = "store";

    /**
     * Returns the store's name.
     *
     * @return {@code sqlite} or {@code postgresql}
     */
    String name();

    /**
     * Opens a benchmark queue of {@link BenchMessage} payloads.
     *
     * @param directory the scenario directory the queue belongs to (a file's directory, or the name of a schema)
     * @param queue the queue name
     * @param mode the durability mode
     * @return the open queue, which releases everything it opened when closed
     */
    default SimpleQueue<BenchMessage> openQueue(Path directory, String queue, DurabilityMode mode) {
        return openQueue(directory, queue, mode, UnaryOperator.identity());
    }

    /**
     * Opens a benchmark queue of {@link BenchMessage} payloads with settings of the scenario's own, such as limits.
     *
     * @param directory the scenario directory the queue belongs to
     * @param queue the queue name
     * @param mode the durability mode
     * @param configure adds the scenario's settings to the builder
     * @return the open queue, which releases everything it opened when closed
     */
    SimpleQueue<BenchMessage> openQueue(Path directory, String queue, DurabilityMode mode,
                                        UnaryOperator<SimpleQueue.Builder<BenchMessage>> configure);

    /**
     * Returns the {@code key=value} settings a child JVM needs to reach this store's queues.
     *
     * @return the settings, empty for SQLite
     */
    List<String> childSettings();

    /**
     * Returns the raw JDBC baseline of this store for some workloads.
     *
     * @param workloads the workloads to measure, in order
     * @return the baseline, run like a scenario
     */
    Scenario rawBaseline(List<RawWorkload> workloads);

    /**
     * Returns the CPU meter of the store's server, or null for a file, which has none.
     *
     * @return the meter, or null
     */
    default @Nullable ServerCpu serverCpu() {
        return null;
    }

    /**
     * Returns the store a child JVM was started with.
     *
     * @param settings the child's settings
     * @return the store they name
     */
    static BenchStore of(ChildSettings settings) {
        String name = settings.values().getOrDefault(STORE_SETTING, Sqlite.NAME);
        return switch (name.toLowerCase(Locale.ROOT)) {
            case Sqlite.NAME -> Sqlite.INSTANCE;
            case PostgresBenchStore.NAME -> new PostgresBenchStore(settings.text(PostgresBenchStore.URL_SETTING));
            default -> throw new IllegalArgumentException("unknown store '" + name + "'");
        };
    }

    /** SQLite: each scenario directory holds one file. */
    final class Sqlite implements BenchStore {

        /** The store's name. */
        public static final String NAME = "sqlite";

        /** The one instance. */
        public static final Sqlite INSTANCE = new Sqlite();

        private Sqlite() {
        }

        @Override
        public String name() {
            return NAME;
        }

        @Override
        public SimpleQueue<BenchMessage> openQueue(Path directory, String queue, DurabilityMode mode,
                                                   UnaryOperator<SimpleQueue.Builder<BenchMessage>> configure) {
            return configure.apply(SimpleQueue.builder(directory, BenchMessage.class).name(queue)
                    .delivery(RunContext.DELIVERY).durability(mode)).build();
        }

        @Override
        public List<String> childSettings() {
            return List.of();
        }

        @Override
        public Scenario rawBaseline(List<RawWorkload> workloads) {
            return new RawBaseline(workloads);
        }
    }
}
