package io.localqueue.dashboard;

import io.localqueue.InvalidArgumentException;
import io.localqueue.JobCursor;
import io.localqueue.JobState;
import io.localqueue.SimpleQueue;
import io.localqueue.StoredJob;
import io.localqueue.bus.EventBus;
import io.localqueue.bus.FailedDelivery;
import io.localqueue.bus.Subscription;
import io.localqueue.spring.LocalQueueRegistry;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The dashboard's reads of one queue's jobs: a keyset page of one state with a count that stops at the cap, and one
 * job in full; payloads and headers only as the redaction shows them. Each read is one bounded query of the store:
 * a page costs its own rows, whatever the backlog.
 */
final class JobReader {

    private final LocalQueueRegistry queues;
    private final PayloadView payloads;
    private final int pageSize;
    private final long countCap;

    JobReader(LocalQueueRegistry queues, PayloadView payloads, int pageSize, long countCap) {
        this.queues = queues;
        this.payloads = payloads;
        this.pageSize = pageSize;
        this.countCap = countCap;
    }

    /** One page of a queue's jobs in one state, or null when the application does not know the queue. */
    @Nullable JobPage page(String queue, String stateName, @Nullable String after, @Nullable Integer limit) {
        SimpleQueue<Object> known = known(queue);
        if (known == null) {
            return null;
        }
        JobState state = state(stateName);
        int size = limit == null ? pageSize : limit;
        if (size < 1 || size > SimpleQueue.MAX_PAGE) {
            throw new InvalidArgumentException("limit", "limit must be between 1 and " + SimpleQueue.MAX_PAGE
                    + ", got " + size);
        }
        JobCursor cursor = after == null || after.isBlank() ? null : JobCursor.parse(after);
        List<StoredJob<Object>> jobs = known.listJobs(state, cursor, size);
        List<JobSummary> rows = new ArrayList<>(jobs.size());
        for (StoredJob<Object> job : jobs) {
            rows.add(new JobSummary(job.id(), job.jobId(), job.state().name().toLowerCase(Locale.ROOT),
                    job.priority(), job.concurrencyKey(), job.dueAt(), job.leaseUntil(), job.attempts(),
                    job.maxAttempts(), job.updatedAt(), job.lastError(),
                    payloads.preview(queue, job.rawPayload())));
        }
        long counted = known.countJobs(state, countCap + 1);
        String next = jobs.size() == size ? jobs.get(jobs.size() - 1).cursor().toString() : null;
        return new JobPage(queue, state.name().toLowerCase(Locale.ROOT), Math.min(counted, countCap),
                counted > countCap, rows, next);
    }

    /** One job in full, or null when the application does not know the queue or the queue has no such job. */
    @Nullable JobDetail job(String queue, long id) {
        SimpleQueue<Object> known = known(queue);
        if (known == null) {
            return null;
        }
        StoredJob<Object> job = known.findJob(id).orElse(null);
        if (job == null) {
            return null;
        }
        Map<String, String> headers = new LinkedHashMap<>();
        job.headers().forEach((name, value) -> headers.put(name, payloads.header(queue, name, value)));
        return new JobDetail(job.id(), queue, job.jobId(), job.state().name().toLowerCase(Locale.ROOT),
                payloads.full(queue, job.rawPayload()), job.rawPayload().length, job.decodeError(), headers,
                job.attempts(), job.maxAttempts(), job.priority(), job.concurrencyKey(), job.dueAt(),
                job.leaseUntil(), job.createdAt(), job.updatedAt(), job.lastError(),
                job.failureReason() == null ? null : job.failureReason().value());
    }

    /**
     * One page of a subscription's dead letters, oldest first, or null when the application has no bus or the bus no
     * such subscription.
     */
    @Nullable DeliveryPage deadDeliveries(@Nullable EventBus bus, String subscription, int offset) {
        if (bus == null || !bus.topology().hasSubscription(subscription)) {
            return null;
        }
        if (offset < 0) {
            throw new InvalidArgumentException("offset", "offset must be 0 or more, got " + offset);
        }
        Subscription known = bus.subscription(subscription);
        List<DeadDelivery> rows = new ArrayList<>();
        for (FailedDelivery failed : known.listFailed(pageSize, offset)) {
            rows.add(new DeadDelivery(failed.id(), failed.eventType(), failed.reason().value(), failed.attempts(),
                    failed.lastError(), failed.updatedAt(), payloads.eventPreview(known.queueName(), failed.rawPayload())));
        }
        return new DeliveryPage(subscription, offset, rows, rows.size() == pageSize ? offset + pageSize : null);
    }

    /** The queue, when the application knows it; a read never creates one. */
    @Nullable SimpleQueue<Object> known(String queue) {
        return queues.queueNames().contains(queue) ? queues.queue(queue) : null;
    }

    static JobState state(String name) {
        for (JobState state : JobState.values()) {
            if (state.name().equalsIgnoreCase(name) || name.equalsIgnoreCase("dead") && state == JobState.FAILED) {
                return state;
            }
        }
        throw new InvalidArgumentException("state", "state must be one of ready, delayed, leased, failed, acked; got '"
                + name + "'");
    }

    /**
     * One row of a list.
     *
     * @param id the job's id
     * @param jobId its job id, or null
     * @param state its state
     * @param priority its priority
     * @param key its concurrency key, or null
     * @param dueAt when it falls (or fell) due
     * @param leaseUntil when its lease ends, while leased
     * @param attempts claims so far
     * @param maxAttempts claims its budget allows
     * @param updatedAt when it last changed
     * @param lastError the last error, or null
     * @param preview the start of its payload, as the redaction shows it
     */
    record JobSummary(long id, @Nullable String jobId, String state, int priority, @Nullable String key,
                      Instant dueAt, @Nullable Instant leaseUntil, int attempts, int maxAttempts, Instant updatedAt,
                      @Nullable String lastError, String preview) {
    }

    /**
     * One dead letter of a subscription.
     *
     * @param id its id
     * @param eventType its event's type, or null
     * @param reason why it is a dead letter
     * @param attempts deliveries so far
     * @param lastError the last error, or null
     * @param updatedAt when it became a dead letter
     * @param preview the start of its event, as the redaction shows it
     */
    record DeadDelivery(long id, @Nullable String eventType, String reason, int attempts, @Nullable String lastError,
                        Instant updatedAt, String preview) {
    }

    /**
     * One page of a subscription's dead letters.
     *
     * @param subscription the subscription
     * @param offset how many come before the page
     * @param deadLetters the page
     * @param nextOffset the next page's offset, or null at the end
     */
    record DeliveryPage(String subscription, int offset, List<DeadDelivery> deadLetters,
                        @Nullable Integer nextOffset) {
    }

    /**
     * One page of a list.
     *
     * @param queue the queue
     * @param state the state listed
     * @param count how many jobs the state holds, at most the cap
     * @param capped whether there are more than the cap (the page shows "10,000+")
     * @param jobs the page
     * @param next the cursor of the next page, or null at the end
     */
    record JobPage(String queue, String state, long count, boolean capped, List<JobSummary> jobs,
                   @Nullable String next) {
    }

    /**
     * One job in full.
     *
     * @param id the job's id
     * @param queue its queue
     * @param jobId its job id, or null
     * @param state its state
     * @param payload the payload as the redaction shows it, pretty-printed
     * @param payloadBytes the stored payload's size
     * @param decodeError why the queue's serializer cannot read it, or null
     * @param headers its headers as the redaction shows them
     * @param attempts claims so far
     * @param maxAttempts claims its budget allows
     * @param priority its priority
     * @param key its concurrency key, or null
     * @param dueAt when it falls (or fell) due
     * @param leaseUntil when its lease ends, while leased
     * @param createdAt when it was put
     * @param updatedAt when it last changed
     * @param lastError the last error, or null
     * @param failureReason why it is a dead letter, or null
     */
    record JobDetail(long id, String queue, @Nullable String jobId, String state, String payload, int payloadBytes,
                     @Nullable String decodeError, Map<String, String> headers, int attempts, int maxAttempts,
                     int priority, @Nullable String key, Instant dueAt, @Nullable Instant leaseUntil,
                     Instant createdAt, Instant updatedAt, @Nullable String lastError,
                     @Nullable String failureReason) {
    }
}
