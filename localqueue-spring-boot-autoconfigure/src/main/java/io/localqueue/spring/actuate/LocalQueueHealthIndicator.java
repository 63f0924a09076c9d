package io.localqueue.spring.actuate;

import io.localqueue.IntegrityCheckMode;
import io.localqueue.IntegrityCheckResult;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.QueueDiagnostics;
import io.localqueue.bus.EventBus;
import io.localqueue.bus.Subscription;
import io.localqueue.spring.LocalQueueRegistry;
import io.localqueue.spring.ObservedQueues;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * Health of the queue file: DOWN when it no longer exists (its directory was removed under the application), cannot
 * be read or its quick integrity check fails (the check reads the whole file, so its result is reused for a
 * configurable interval, but never shown while the store does not answer: integrity is then {@code unknown}, beside
 * the error); the details list each queue's counts and each event-bus subscription's (with whether it consumes
 * here), from their last snapshots ({@link ObservedQueues}) with how many seconds old they are, and the check's
 * findings.
 *
 * @since 0.1.0
 */
public class LocalQueueHealthIndicator extends AbstractHealthIndicator {

    private static final int MAX_FINDINGS = 10;
    private static final Logger log = LoggerFactory.getLogger(LocalQueueHealthIndicator.class);

    private final LocalQueueRegistry queues;
    private final ObservedQueues observed;
    private final Duration integrityInterval;
    private final Clock clock;
    private final @Nullable EventBus bus;
    private @Nullable IntegrityCheckResult lastCheck;
    private @Nullable Instant lastCheckAt;
    /** Whether the last check found the store not answering, so that a run of such checks logs once. */
    private final AtomicBoolean unreachable = new AtomicBoolean();

    /**
     * Creates the indicator.
     *
     * @param observed the application's queues, as they are reported
     * @param integrityInterval how long a quick integrity check's result is reused
     * @param clock the clock that times that reuse
     */
    public LocalQueueHealthIndicator(ObservedQueues observed, Duration integrityInterval, Clock clock) {
        this(observed, integrityInterval, clock, null);
    }

    /**
     * Creates the indicator of an application with an event bus.
     *
     * @param observed the application's queues, as they are reported
     * @param integrityInterval how long a quick integrity check's result is reused; zero checks at every call
     * @param clock the clock that times that reuse
     * @param bus the event bus whose subscriptions the details list, or null for none
     * @throws IllegalArgumentException when {@code integrityInterval} is null or negative
     * @since 0.1.0
     */
    public LocalQueueHealthIndicator(ObservedQueues observed, Duration integrityInterval, Clock clock,
                                     @Nullable EventBus bus) {
        super("localqueue health check failed");
        if (integrityInterval == null || integrityInterval.isNegative()) {
            throw new IllegalArgumentException("integrity check interval must be zero or more, got "
                    + integrityInterval);
        }
        this.queues = observed.queues();
        this.observed = observed;
        this.integrityInterval = integrityInterval;
        this.clock = clock;
        this.bus = bus;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        LocalQueueDatabase database = queues.database();
        if (database.isFile() && !Files.isRegularFile(database.file())) {
            builder.down().withDetail("file", database.file().toString())
                    .withDetail("error", "the queue file no longer exists; writes fail until the application "
                            + "reopens it");
            return;
        }
        if (database.isFile()) {
            builder.withDetail("file", database.file().toString());
        } else {
            builder.withDetail("store", database.engine()).withDetail("location", database.location());
        }
        Map<String, Object> details = new LinkedHashMap<>();
        Map<String, Object> subscriptions = new LinkedHashMap<>();
        IntegrityCheckResult integrity;
        try {
            for (String name : queues.queueNames()) {
                details.put(name, summary(observed.diagnostics(name)));
            }
            EventBus events = bus;
            if (events != null) {
                for (String name : events.topology().subscriptionNames()) {
                    Subscription subscription = events.subscription(name);
                    Map<String, @Nullable Object> summary = summary(observed.diagnostics(subscription));
                    summary.put("consuming", subscription.consuming());
                    subscriptions.put(name, summary);
                }
            }
            integrity = integrity();
        } catch (RuntimeException unreachable) {
            // The store did not answer now: an earlier check says nothing of what it holds, so none is shown. The
            // error is a detail, not the builder's exception, which would log its stack trace at every probe.
            if (this.unreachable.compareAndSet(false, true)) {
                log.warn("localqueue health: the store does not answer; health is DOWN until it does: {}",
                        unreachable.getMessage());
            }
            builder.down().withDetail("error", unreachable.getClass().getName() + ": " + unreachable.getMessage())
                    .withDetail("integrity", "unknown");
            return;
        }
        if (this.unreachable.compareAndSet(true, false)) {
            log.info("localqueue health: the store answers again");
        }
        builder.withDetail("integrity", integrity.ok() ? "ok" : integrity.messages());
        builder.status(integrity.ok() ? "UP" : "DOWN").withDetail("queues", details);
        if (bus != null) {
            builder.withDetail("subscriptions", subscriptions);
        }
    }

    private Map<String, @Nullable Object> summary(QueueDiagnostics diagnostics) {
        Map<String, @Nullable Object> queue = new LinkedHashMap<>();
        queue.put("ready", diagnostics.ready());
        queue.put("processing", diagnostics.processing());
        queue.put("failed", diagnostics.failed());
        queue.put("expiredLeases", diagnostics.expiredLeases());
        queue.put("oldestAvailableAgeSeconds", diagnostics.oldestAvailableAgeSeconds());
        queue.put("observedAgeSeconds", observed.ageSeconds(diagnostics));
        return queue;
    }

    private synchronized IntegrityCheckResult integrity() {
        Instant now = clock.instant();
        IntegrityCheckResult cached = lastCheck;
        if (cached != null && lastCheckAt != null && now.isBefore(lastCheckAt.plus(integrityInterval))) {
            return cached;
        }
        IntegrityCheckResult fresh = queues.database().checkIntegrity(IntegrityCheckMode.QUICK, MAX_FINDINGS);
        lastCheck = fresh;
        lastCheckAt = now;
        return fresh;
    }
}
