package io.localqueue.benchmark;

import io.localqueue.DeliveryPolicy;
import io.localqueue.DurabilityMode;
import io.localqueue.SimpleQueue;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The queue of a soak run, opened the same way by every producer, consumer and the final check: payloads are the
 * job keys as JSON strings, with the profile's lease, retry budget and backpressure limit.
 */
final class SoakQueue {

    static final String NAME = "soak";
    static final DurabilityMode DURABILITY = DurabilityMode.RELAXED;

    private SoakQueue() {
    }

    /** The child settings that make {@link #open(ChildSettings)} open the queue of {@code profile}. */
    static List<String> settings(Path directory, SoakProfile profile) {
        return List.of("dir=" + directory, "queue=" + NAME, "mode=" + DURABILITY,
                "leaseMillis=" + profile.lease().toMillis(), "maxRetries=" + profile.maxRetries(),
                "maxPending=" + profile.maxPendingJobs());
    }

    static SimpleQueue<String> open(ChildSettings settings) {
        return open(settings.directory(), Duration.ofMillis(settings.number("leaseMillis")),
                (int) settings.number("maxRetries"), settings.number("maxPending"));
    }

    static SimpleQueue<String> open(Path directory, SoakProfile profile) {
        return open(directory, profile.lease(), profile.maxRetries(), profile.maxPendingJobs());
    }

    private static SimpleQueue<String> open(Path directory, Duration lease, int maxRetries, long maxPending) {
        return SimpleQueue.builder(directory, String.class).name(NAME).durability(DURABILITY)
                .delivery(new DeliveryPolicy(lease, maxRetries)).maxPendingJobs(maxPending).build();
    }
}
