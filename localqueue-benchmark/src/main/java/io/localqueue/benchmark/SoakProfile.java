package io.localqueue.benchmark;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The sizes and fault rates of one soak run. {@code short} fits in CI (under two minutes); {@code long} runs for a
 * quarter of an hour and gives the published figures. Both run two producer and two consumer JVMs, sized for two
 * cores.
 *
 * @param name the profile name
 * @param producers producer JVMs
 * @param consumers consumer JVMs
 * @param duration how long producers put and faults are injected; a drain follows
 * @param putsPerSecond the rate each producer aims at
 * @param concurrency handlers running at once in each consumer's {@code Worker}
 * @param longestWork the longest a handler works before its outcome (each draws from zero up to it), so that a
 *                    killed consumer has executions in flight
 * @param lease the lease of every delivery; slow handlers outlive it
 * @param maxRetries the retry budget of every job
 * @param maxPendingJobs the queue's backpressure limit
 * @param meanTimeBetweenFaults the mean pause between two injected faults (kills or lock holds)
 * @param longestLockHold the longest hold of the write lock by a plain JDBC connection (the shortest is a third)
 * @param nackShare the share of executions whose handler throws a transient error (a nack)
 * @param failShare the share of executions whose handler throws a permanent error (a dead letter)
 * @param slowShare the share of executions whose handler outlives its lease
 * @param poisonEvery one job key in this many always fails transiently, until its budget is spent
 * @param reackEvery one acknowledged delivery in this many is acknowledged a second time, which must be refused
 * @param drainTimeout the longest wait, once producers stopped, for consumers to settle every job
 */
record SoakProfile(String name, int producers, int consumers, Duration duration, int putsPerSecond,
                   int concurrency, Duration longestWork, Duration lease, int maxRetries, long maxPendingJobs,
                   Duration meanTimeBetweenFaults, Duration longestLockHold, double nackShare, double failShare,
                   double slowShare, int poisonEvery, int reackEvery, Duration drainTimeout) {

    static final List<String> NAMES = List.of("short", "long");

    static SoakProfile named(String name) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "short" -> base("short", Duration.ofSeconds(90), Duration.ofSeconds(3));
            case "long" -> base("long", Duration.ofMinutes(15), Duration.ofSeconds(5));
            default -> throw new IllegalArgumentException("unknown soak profile '" + name + "'; use one of " + NAMES);
        };
    }

    private static SoakProfile base(String name, Duration duration, Duration meanTimeBetweenFaults) {
        return new SoakProfile(name, 2, 2, duration, 200, 8, Duration.ofMillis(20), Duration.ofSeconds(4), 4, 20_000,
                meanTimeBetweenFaults, Duration.ofSeconds(3), 0.03, 0.01, 0.001, 400, 4, Duration.ofSeconds(60));
    }

    /** The same profile injecting faults for {@code newDuration}. */
    SoakProfile withDuration(Duration newDuration) {
        return new SoakProfile(name, producers, consumers, newDuration, putsPerSecond, concurrency, longestWork, lease,
                maxRetries, maxPendingJobs, meanTimeBetweenFaults, longestLockHold, nackShare, failShare, slowShare,
                poisonEvery, reackEvery, drainTimeout);
    }

    /** How long a slow handler runs: two seconds past its lease. */
    Duration slowHandler() {
        return lease.plusSeconds(2);
    }
}
