package io.localqueue.dashboard;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Jobs finished per minute by queue, from the finished counts (acknowledged plus dead) of the snapshots the dashboard
 * saw over the last {@link #WINDOW}: no query of its own. A count that fell (retention deleted finished rows) starts
 * the window again rather than report a negative rate.
 */
final class Throughput {

    /** How far back the rate looks. */
    static final Duration WINDOW = Duration.ofMinutes(1);

    /** The shortest span a rate is computed over. */
    static final Duration SHORTEST = Duration.ofSeconds(4);

    private final Map<String, Deque<Sample>> samples = new HashMap<>();

    /** Records a snapshot's finished count and returns the rate, or null until two snapshots far enough apart. */
    synchronized @Nullable Double perMinute(String queue, Instant observedAt, long finished) {
        Deque<Sample> seen = samples.computeIfAbsent(queue, name -> new ArrayDeque<>());
        Sample last = seen.peekLast();
        if (last != null && finished < last.finished()) {
            seen.clear();
        }
        if (last == null || observedAt.isAfter(last.at())) {
            seen.addLast(new Sample(observedAt, finished));
        }
        while (seen.size() > 2 && seen.peekFirst().at().isBefore(observedAt.minus(WINDOW))) {
            seen.removeFirst();
        }
        Sample first = seen.peekFirst();
        Duration span = Duration.between(first.at(), observedAt);
        if (span.compareTo(SHORTEST) < 0) {
            return null;
        }
        return (finished - first.finished()) * 60_000.0 / span.toMillis();
    }

    private record Sample(Instant at, long finished) {
    }
}
