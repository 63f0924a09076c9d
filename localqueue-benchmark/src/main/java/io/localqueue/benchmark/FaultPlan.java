package io.localqueue.benchmark;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * The faults a soak run injects from outside its processes, drawn from one seeded {@link Random} so that a run's
 * schedule can be replayed: the first three faults are one of each kind in a random order, so that even a short run
 * has them all, and the later ones are drawn by weight, after pauses drawn from an exponential distribution.
 */
final class FaultPlan {

    enum Kind { KILL_PRODUCER, KILL_CONSUMER, HOLD_WRITE_LOCK }

    private static final Duration SHORTEST_PAUSE = Duration.ofMillis(500);
    private static final Duration LONGEST_RESTART_PAUSE = Duration.ofSeconds(1);

    private final Random random;
    private final SoakProfile profile;
    private final List<Kind> first = new ArrayList<>(List.of(Kind.values()));

    FaultPlan(long seed, SoakProfile profile) {
        this.random = new Random(seed);
        this.profile = profile;
        Collections.shuffle(first, random);
    }

    /** How long to wait before the next fault. */
    Duration nextPause() {
        double mean = profile.meanTimeBetweenFaults().toMillis();
        long millis = (long) Math.min(3 * mean, -mean * Math.log(1 - random.nextDouble()));
        return Duration.ofMillis(Math.max(SHORTEST_PAUSE.toMillis(), millis));
    }

    /** The next fault: kills of producers and consumers and lock holds in about 3 : 4 : 3. */
    Kind nextKind() {
        if (!first.isEmpty()) {
            return first.remove(0);
        }
        int draw = random.nextInt(10);
        return draw < 3 ? Kind.KILL_PRODUCER : draw < 7 ? Kind.KILL_CONSUMER : Kind.HOLD_WRITE_LOCK;
    }

    /** Which of {@code count} processes to kill. */
    int victim(int count) {
        return random.nextInt(count);
    }

    /** How long a killed process stays down before its successor starts: 0.1 to 1 s. */
    Duration restartPause() {
        return Duration.ofMillis(100 + random.nextInt((int) LONGEST_RESTART_PAUSE.toMillis() - 100));
    }

    /** How long the write lock is held: a third of the profile's longest hold up to all of it. */
    Duration lockHold() {
        long longest = profile.longestLockHold().toMillis();
        return Duration.ofMillis(longest / 3 + random.nextInt((int) (longest - longest / 3) + 1));
    }
}
