package io.localqueue.storage;

import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;

/**
 * One {@code messages} row exactly as the Python library writes it: the payload is the UTF-8 of
 * {@code json.dumps(obj)}, timestamps are epoch milliseconds, {@code max_attempts} is {@code max_retries + 1}, and
 * receipt and lease are set only while the row is leased.
 */
record StoredRow(
        String queue,
        byte[] payload,
        int status,
        int attempts,
        int maxAttempts,
        long availableAt,
        @Nullable Long leaseUntil,
        @Nullable String receipt,
        @Nullable String lastError,
        @Nullable String failureReason,
        @Nullable String failureCategory,
        @Nullable String jobId,
        @Nullable String dedupKey,
        @Nullable String dedupFingerprint,
        long createdAt,
        long updatedAt) {

    /** {@code max_retries + 1} of the Python default {@code DeliveryPolicy(max_retries=3)}. */
    static final int PYTHON_DEFAULT_MAX_ATTEMPTS = 4;

    /**
     * Starts the row a Python {@code put} commits at {@code at}: ready, no attempts, due at once.
     *
     * @param json the payload as {@code json.dumps} spells it
     */
    static Builder put(String queue, String json, long at) {
        return new Builder(queue, json.getBytes(StandardCharsets.UTF_8), at);
    }

    /** Builds a row step by step through the transitions the Python library makes. */
    static final class Builder {

        private final String queue;
        private final byte[] payload;
        private final long createdAt;
        private int status;
        private int attempts;
        private int maxAttempts = PYTHON_DEFAULT_MAX_ATTEMPTS;
        private long availableAt;
        private @Nullable Long leaseUntil;
        private @Nullable String receipt;
        private @Nullable String lastError;
        private @Nullable String failureReason;
        private @Nullable String failureCategory;
        private @Nullable String jobId;
        private @Nullable String dedupKey;
        private @Nullable String dedupFingerprint;
        private long updatedAt;

        private Builder(String queue, byte[] payload, long at) {
            this.queue = queue;
            this.payload = payload;
            this.createdAt = at;
            this.availableAt = at;
            this.updatedAt = at;
        }

        Builder jobId(String value) {
            this.jobId = value;
            return this;
        }

        /** The event-bus identity, which the Python library always writes together with its fingerprint. */
        Builder dedup(String key, String fingerprint) {
            this.dedupKey = key;
            this.dedupFingerprint = fingerprint;
            return this;
        }

        /** A claim at {@code at}: leased until {@code leaseUntil} with {@code receipt}, one more attempt. */
        Builder claimed(long at, long leaseUntil, String receipt) {
            this.status = 1;
            this.attempts++;
            this.leaseUntil = leaseUntil;
            this.receipt = receipt;
            this.updatedAt = at;
            return this;
        }

        /** A nack at {@code at} with budget left: ready again at {@code availableAt}, reason cleared. */
        Builder nacked(long at, long availableAt, String error) {
            this.status = 0;
            this.availableAt = availableAt;
            this.lastError = error;
            this.failureReason = null;
            this.failureCategory = null;
            return released(at);
        }

        Builder acked(long at) {
            this.status = 2;
            return released(at);
        }

        /** A move to the dead letters at {@code at}; a null reason is what rows from before 1.3 hold. */
        Builder failed(long at, @Nullable String reason, @Nullable String category, @Nullable String error) {
            this.status = 3;
            this.failureReason = reason;
            this.failureCategory = category;
            this.lastError = error;
            return released(at);
        }

        private Builder released(long at) {
            this.receipt = null;
            this.leaseUntil = null;
            this.updatedAt = at;
            return this;
        }

        StoredRow build() {
            return new StoredRow(queue, payload, status, attempts, maxAttempts, availableAt, leaseUntil, receipt,
                    lastError, failureReason, failureCategory, jobId, dedupKey, dedupFingerprint, createdAt,
                    updatedAt);
        }
    }
}
