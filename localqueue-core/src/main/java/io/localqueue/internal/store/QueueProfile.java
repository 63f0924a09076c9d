package io.localqueue.internal.store;

import io.localqueue.DeliveryPolicy;
import io.localqueue.DurabilityMode;

/**
 * A queue as one queue object configures it, for the reports that describe both the queue and its settings.
 *
 * @param queue the queue name
 * @param serializerIdentity the payload format
 * @param delivery the lease and retry budget
 * @param durability how its commits reach the disk
 * @param maxPendingJobs the pending-job limit, or 0 for none
 */
public record QueueProfile(String queue, String serializerIdentity, DeliveryPolicy delivery,
                           DurabilityMode durability, long maxPendingJobs) {
}
