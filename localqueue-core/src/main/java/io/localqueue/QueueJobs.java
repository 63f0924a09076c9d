package io.localqueue;

import io.localqueue.internal.engine.Errors;
import io.localqueue.internal.engine.QueueEngine;
import io.localqueue.internal.store.ClaimedRow;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What a {@link SimpleQueue} hands its {@link Worker}: the engine that claims and fences its jobs, and the turning of
 * a claimed row into a job with the queue's serializer, where a payload it cannot decode becomes a dead letter
 * ({@link FailureReason#INVALID_PAYLOAD}) at once.
 *
 * @param <T> the payload type
 */
final class QueueJobs<T> {

    private final QueueEngine engine;
    private final String name;
    private final Serializer<T> serializer;

    QueueJobs(QueueEngine engine, String name, Serializer<T> serializer) {
        this.engine = engine;
        this.name = name;
        this.serializer = serializer;
    }

    QueueEngine engine() {
        return engine;
    }

    /**
     * Decodes a claimed row into a job.
     *
     * @throws LocalQueueException naming the job, once it is a dead letter, when its payload cannot be decoded
     */
    Job<T> job(ClaimedRow row) {
        Job<T> job = jobOrDeadLetter(row, (id, attempts, error, cause) -> {
            throw new LocalQueueException("job " + id + " of queue '" + name + "' cannot be decoded by "
                    + serializer.identity() + " and was moved to the dead letters: " + error, cause);
        });
        return Objects.requireNonNull(job);
    }

    /**
     * Decodes a claimed row into a job, or makes it a dead letter when the serializer cannot decode its payload,
     * tells {@code undecodable} and returns null.
     */
    @Nullable Job<T> jobOrDeadLetter(ClaimedRow row, Undecodable undecodable) {
        T data;
        try {
            data = serializer.deserialize(row.payload());
        } catch (RuntimeException failure) {
            String error = Errors.describe(failure);
            engine.fail(row.id(), row.receipt(), error, FailureReason.INVALID_PAYLOAD, null);
            undecodable.deadLettered(row.id(), row.attempts(), error, failure);
            return null;
        }
        return new Job<>(engine, name, row.id(), data, row.attempts() - 1, row.receipt(), row.headers(),
                Instant.ofEpochMilli(row.leaseUntil()), Instant.ofEpochMilli(row.dueAt()),
                Instant.ofEpochMilli(row.claimedAt()), row.priority(), row.concurrencyKey());
    }

    /** Told of a claimed job whose payload could not be decoded, once it is a dead letter. */
    @FunctionalInterface
    interface Undecodable {
        void deadLettered(long id, int attempts, String decodeError, RuntimeException cause);
    }
}
