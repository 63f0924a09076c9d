package io.localqueue.spring;

import io.localqueue.DeliveryPolicy;
import io.localqueue.DurabilityMode;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * How the application's queues are opened: the durability every queue commits with, the delivery policy of queues
 * without their own, and each configured queue's overrides. The one place that resolves a queue's delivery policy;
 * each override is validated when it is added, so a bad one fails the application's start.
 *
 * @since 0.1.0
 */
public final class QueueSettings {

    private final DeliveryPolicy defaultDelivery;
    private final DurabilityMode durability;
    private final Map<String, Queue> queues;

    private QueueSettings(DeliveryPolicy defaultDelivery, DurabilityMode durability, Map<String, Queue> queues) {
        this.defaultDelivery = defaultDelivery;
        this.durability = durability;
        this.queues = queues;
    }

    /**
     * Returns settings without per-queue overrides.
     *
     * @param defaultDelivery the delivery policy of every queue
     * @param durability how every queue commits
     * @return the settings
     */
    public static QueueSettings of(DeliveryPolicy defaultDelivery, DurabilityMode durability) {
        if (defaultDelivery == null) {
            throw new IllegalArgumentException("defaultDelivery must not be null");
        }
        if (durability == null) {
            throw new IllegalArgumentException("durability must not be null");
        }
        return new QueueSettings(defaultDelivery, durability, Map.of());
    }

    /**
     * Returns a copy in which one queue has its own lease, retry budget or pending-job limit; unset values fall back
     * to the defaults.
     *
     * @param name the queue name
     * @param lease the queue's lease, or null for the default one
     * @param maxRetries the queue's retry budget, or null for the default one
     * @param maxPendingJobs the queue's pending-job limit, or null for none
     * @return the new settings
     * @throws IllegalArgumentException when the override makes an invalid policy or a limit that is not positive
     */
    public QueueSettings withQueue(String name, @Nullable Duration lease, @Nullable Integer maxRetries,
                                   @Nullable Long maxPendingJobs) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("name must not be blank");
        }
        if (maxPendingJobs != null && maxPendingJobs <= 0) {
            throw new IllegalArgumentException("maxPendingJobs of queue '" + name + "' must be positive, got "
                    + maxPendingJobs);
        }
        DeliveryPolicy delivery = new DeliveryPolicy(lease != null ? lease : defaultDelivery.lease(),
                maxRetries != null ? maxRetries : defaultDelivery.maxRetries());
        Map<String, Queue> copy = new LinkedHashMap<>(queues);
        copy.put(name, new Queue(delivery, maxPendingJobs));
        return new QueueSettings(defaultDelivery, durability, Collections.unmodifiableMap(copy));
    }

    /**
     * Returns the delivery policy of a queue: its own overrides on top of the default policy.
     *
     * @param queue the queue name
     * @return the policy
     */
    public DeliveryPolicy deliveryFor(String queue) {
        Queue settings = queues.get(queue);
        return settings == null ? defaultDelivery : settings.delivery;
    }

    /**
     * Returns the pending-job limit of a queue.
     *
     * @param queue the queue name
     * @return the limit, or empty when the queue has none
     */
    public OptionalLong maxPendingJobsFor(String queue) {
        Queue settings = queues.get(queue);
        return settings == null || settings.maxPendingJobs == null ? OptionalLong.empty()
                : OptionalLong.of(settings.maxPendingJobs);
    }

    /**
     * Returns how every queue commits.
     *
     * @return the durability mode
     */
    public DurabilityMode durability() {
        return durability;
    }

    /**
     * Returns the names of the queues with settings of their own, in the order they were added.
     *
     * @return the names
     */
    public Set<String> configuredQueues() {
        return queues.keySet();
    }

    private record Queue(DeliveryPolicy delivery, @Nullable Long maxPendingJobs) {
    }
}
