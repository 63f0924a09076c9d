package io.localqueue.model;

import io.localqueue.TestDatabases;
import java.nio.file.Path;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Seeded random walks of puts, claims, settlements, stale receipts, clock jumps, reclaims, dead-letter replays,
 * purges and reopens, each checked step by step against {@link QueueModel}.
 *
 * <p>Replay one walk with {@code -Dlocalqueue.model.seed=<seed>} (and optionally
 * {@code -Dlocalqueue.model.steps=<n>}); a failure names both. {@code -Dlocalqueue.model.seeds=<count>} runs a longer
 * exploration over more seeds. The walks run on the store under test (a quarter of the seeds on a database server,
 * where every step is a round trip); there every queue shares one handle, as a server's queues do.
 */
@Tag(TestDatabases.CONTRACT)
class SimpleQueueModelTest {

    static final String SEED_PROPERTY = "localqueue.model.seed";
    static final String STEPS_PROPERTY = "localqueue.model.steps";
    static final String SEEDS_PROPERTY = "localqueue.model.seeds";
    private static final long FIRST_SEED = 1_000;
    private static final int SEEDS = 40;
    private static final int DEFAULT_STEPS = 200;

    @TempDir
    Path directory;

    static LongStream seeds() {
        String replay = System.getProperty(SEED_PROPERTY);
        if (replay != null && !replay.isBlank()) {
            return LongStream.of(Long.parseLong(replay.trim()));
        }
        String count = System.getProperty(SEEDS_PROPERTY);
        int seeds = count == null || count.isBlank() ? (TestDatabases.onFile() ? SEEDS : SEEDS / 4)
                : Integer.parseInt(count.trim());
        return LongStream.range(FIRST_SEED, FIRST_SEED + seeds);
    }

    static int steps() {
        String steps = System.getProperty(STEPS_PROPERTY);
        return steps == null || steps.isBlank() ? DEFAULT_STEPS : Integer.parseInt(steps.trim());
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void randomOperationsAgreeWithTheModel(long seed) {
        // The directory names the database on a server, so each walk gets one of its own.
        new ModelRun(seed, steps(), directory.resolve("queue-" + directory.getFileName())).run();
    }
}
