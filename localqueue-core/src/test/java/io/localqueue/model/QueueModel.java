package io.localqueue.model;

import io.localqueue.FailureReason;
import io.localqueue.QueueStats;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * An in-memory model of one {@code SimpleQueue}: every row with its state, due time, claim count, budget, current
 * delivery and failure, and the prediction of what each operation does to it. Times are epoch milliseconds of the
 * model clock.
 */
final class QueueModel {

    enum State { READY, LEASED, ACKED, FAILED }

    /** One stored row as the model sees it. */
    static final class Row {
        final long id;
        final String payload;
        final @Nullable String jobId;
        final long createdAt;
        final int maxAttempts;
        State state = State.READY;
        long dueAt;
        int attempts;
        /** The delivery currently holding the lease, 0 when none; every claim gets a new number. */
        long delivery;
        long leaseUntil;
        @Nullable FailureReason reason;
        @Nullable String lastError;
        long updatedAt;

        Row(long id, String payload, @Nullable String jobId, int maxAttempts, long now) {
            this.id = id;
            this.payload = payload;
            this.jobId = jobId;
            this.maxAttempts = maxAttempts;
            this.createdAt = now;
            this.updatedAt = now;
            this.dueAt = now;
        }

        @Override
        public String toString() {
            return describe(0);
        }

        String describe(long origin) {
            return "Row[id=" + id + ", jobId=" + jobId + ", " + state + ", due=" + (dueAt - origin) + ", attempts="
                    + attempts + "/" + maxAttempts + (state == State.LEASED ? ", lease=" + (leaseUntil - origin) : "")
                    + (reason != null ? ", reason=" + reason : "") + ", updated=" + (updatedAt - origin) + "]";
        }
    }

    /** One item of a put or putMany. */
    record Item(String payload, @Nullable String jobId) {
    }

    /** What a put predicts: the ids in input order ({@code -k} for the k-th new row), or a full queue. */
    record PutOutcome(@Nullable List<Long> ids, boolean full, boolean impossible, long newRows) {
    }

    enum RetryOutcome { RETRIED, NOT_FOUND, FULL }

    private final TreeMap<Long, Row> rows = new TreeMap<>();
    private final Map<String, Long> byJobId = new HashMap<>();
    private final long maxPendingJobs;
    private final long leaseMillis;
    private int maxAttempts;
    private long lastId;
    private long lastDelivery;
    private final long origin;

    /**
     * @param maxPendingJobs the limit, or 0 for none
     * @param origin the clock's start, so that {@link #toString()} shows times relative to it
     */
    QueueModel(long maxPendingJobs, long leaseMillis, int maxAttempts, long origin) {
        this.origin = origin;
        this.maxPendingJobs = maxPendingJobs;
        this.leaseMillis = leaseMillis;
        this.maxAttempts = maxAttempts;
    }

    /** The budget stored with rows put from now on (the queue object was reopened with another policy). */
    void maxAttempts(int newMaxAttempts) {
        this.maxAttempts = newMaxAttempts;
    }

    long leaseMillis() {
        return leaseMillis;
    }

    long lastId() {
        return lastId;
    }

    /**
     * A row inserted by another queue in the same file takes an id of the shared sequence.
     *
     * @throws AssertionError when the id was issued before
     */
    void foreignId(long id) {
        if (id <= lastId) {
            throw new AssertionError("another queue's new row got id " + id + ", not above every id issued so far ("
                    + lastId + ")");
        }
        lastId = id;
    }

    Optional<Row> row(long id) {
        return Optional.ofNullable(rows.get(id));
    }

    List<Row> rows() {
        return new ArrayList<>(rows.values());
    }

    long pending() {
        return rows.values().stream().filter(r -> r.state == State.READY || r.state == State.LEASED).count();
    }

    QueueStats stats() {
        long[] counts = new long[4];
        for (Row row : rows.values()) {
            counts[row.state.ordinal()]++;
        }
        return new QueueStats(counts[0], counts[1], counts[2], counts[3]);
    }

    List<Row> failed() {
        return rows.values().stream().filter(r -> r.state == State.FAILED).toList();
    }

    /**
     * Predicts a put or putMany without changing the model. All or nothing: a job id present in the queue in any
     * state resolves to its row; duplicates inside the batch resolve to one new row. With a limit, a batch adding
     * rows must fit in {@code limit - pending}. In the predicted ids a new row is {@code -k} for the k-th new row of
     * the batch (1-based): the engine picks the actual ids, which only have to be new and increasing, since SQLite's
     * AUTOINCREMENT also spends ids on inserts that hit an existing job id.
     */
    PutOutcome plan(List<Item> items) {
        Map<String, Long> newIds = new LinkedHashMap<>();
        List<Long> ids = new ArrayList<>(items.size());
        long newRows = 0;
        for (Item item : items) {
            if (item.jobId() == null) {
                ids.add(-(++newRows));
            } else if (byJobId.containsKey(item.jobId())) {
                ids.add(byJobId.get(item.jobId()));
            } else {
                Long placeholder = newIds.get(item.jobId());
                if (placeholder == null) {
                    placeholder = -(++newRows);
                    newIds.put(item.jobId(), placeholder);
                }
                ids.add(placeholder);
            }
        }
        if (maxPendingJobs > 0 && newRows > 0) {
            if (newRows > maxPendingJobs) {
                return new PutOutcome(null, true, true, newRows);
            }
            if (pending() + newRows > maxPendingJobs) {
                return new PutOutcome(null, true, false, newRows);
            }
        }
        return new PutOutcome(ids, false, false, newRows);
    }

    /**
     * Checks the ids the engine returned for a planned put and records the new rows.
     *
     * @throws AssertionError when the ids do not fit the plan
     */
    void commit(List<Item> items, PutOutcome plan, List<Long> actual, long now) {
        List<Long> expected = plan.ids();
        if (actual.size() != expected.size()) {
            throw new AssertionError("put returned " + actual + " for " + items.size() + " items, model " + expected);
        }
        Map<Long, Long> assigned = new HashMap<>();
        for (int i = 0; i < expected.size(); i++) {
            long predicted = expected.get(i);
            long id = actual.get(i);
            if (predicted > 0) {
                if (id != predicted) {
                    throw new AssertionError("put returned " + actual + ", model " + expected + ": item " + i
                            + " should resolve to the existing row " + predicted);
                }
                continue;
            }
            Long earlier = assigned.get(predicted);
            if (earlier != null) {
                if (earlier != id) {
                    throw new AssertionError("put returned " + actual + ", model " + expected + ": item " + i
                            + " repeats a job id of the batch and should resolve to " + earlier);
                }
                continue;
            }
            if (id <= lastId) {
                throw new AssertionError("put returned " + actual + ", model " + expected + ": item " + i
                        + " is a new row but its id is not above every id issued so far (" + lastId + ")");
            }
            assigned.put(predicted, id);
            lastId = id;
            Item item = items.get(i);
            Row row = new Row(id, item.payload(), item.jobId(), maxAttempts, now);
            rows.put(id, row);
            if (row.jobId != null) {
                byJobId.put(row.jobId, id);
            }
        }
    }

    /**
     * Expired leases go back to ready keeping their due time, or to failed once their budget is spent, with a last
     * error saying the lease expired.
     */
    int reclaim(long now) {
        int moved = 0;
        for (Row row : rows.values()) {
            if (row.state == State.LEASED && row.leaseUntil <= now) {
                if (row.attempts < row.maxAttempts) {
                    row.state = State.READY;
                } else {
                    row.state = State.FAILED;
                    row.reason = FailureReason.RETRIES_EXHAUSTED;
                    row.lastError = "lease expired on delivery " + row.attempts + " of " + row.maxAttempts
                            + ": the job was not settled before its lease ran out"
                            + (row.lastError == null ? "" : "; before that: " + row.lastError);
                }
                row.delivery = 0;
                row.updatedAt = now;
                moved++;
            }
        }
        return moved;
    }

    /** Reclaims, then leases the due ready row with the smallest (due time, id). */
    Optional<Row> claim(long now) {
        reclaim(now);
        Optional<Row> next = rows.values().stream()
                .filter(r -> r.state == State.READY && r.dueAt <= now)
                .min(Comparator.<Row>comparingLong(r -> r.dueAt).thenComparingLong(r -> r.id));
        next.ifPresent(row -> {
            row.state = State.LEASED;
            row.attempts++;
            row.delivery = ++lastDelivery;
            row.leaseUntil = now + leaseMillis;
            row.updatedAt = now;
        });
        return next;
    }

    /** Whether a delivery still holds its row: same delivery, still leased, lease not expired. */
    boolean holds(long id, long delivery, long now) {
        Row row = rows.get(id);
        return row != null && row.state == State.LEASED && row.delivery == delivery && row.leaseUntil > now;
    }

    void ack(long id, long now) {
        Row row = rows.get(id);
        row.state = State.ACKED;
        row.delivery = 0;
        row.updatedAt = now;
    }

    /** Back to ready (same due time without delay, now + delay with one), or failed when the budget is spent. */
    State nack(long id, long delayMillis, @Nullable String lastError, long now) {
        Row row = rows.get(id);
        if (row.attempts >= row.maxAttempts) {
            row.state = State.FAILED;
            row.reason = FailureReason.RETRIES_EXHAUSTED;
        } else {
            row.state = State.READY;
            row.reason = null;
            if (delayMillis > 0) {
                row.dueAt = now + delayMillis;
            }
        }
        row.lastError = lastError;
        row.delivery = 0;
        row.updatedAt = now;
        return row.state;
    }

    void fail(long id, @Nullable String lastError, long now) {
        Row row = rows.get(id);
        row.state = State.FAILED;
        row.reason = FailureReason.EXPLICIT_PERMANENT_FAILURE;
        row.lastError = lastError;
        row.delivery = 0;
        row.updatedAt = now;
    }

    long extendLease(long id, long durationMillis, long now) {
        Row row = rows.get(id);
        row.leaseUntil = now + durationMillis;
        row.updatedAt = now;
        return row.leaseUntil;
    }

    RetryOutcome retryFailed(long id, long now) {
        Row row = rows.get(id);
        if (row == null || row.state != State.FAILED) {
            return RetryOutcome.NOT_FOUND;
        }
        if (maxPendingJobs > 0 && pending() >= maxPendingJobs) {
            return RetryOutcome.FULL;
        }
        row.state = State.READY;
        row.attempts = 0;
        row.dueAt = now;
        row.reason = null;
        row.lastError = null;
        row.updatedAt = now;
        return RetryOutcome.RETRIED;
    }

    /** Deletes acked (and failed) rows last changed strictly before now - olderThan; their job ids become free. */
    int purge(long olderThanMillis, boolean includeFailed, long now) {
        long cutoff = now - olderThanMillis;
        List<Row> doomed = rows.values().stream()
                .filter(r -> r.state == State.ACKED || (includeFailed && r.state == State.FAILED))
                .filter(r -> r.updatedAt < cutoff)
                .toList();
        for (Row row : doomed) {
            rows.remove(row.id);
            if (row.jobId != null) {
                byJobId.remove(row.jobId);
            }
        }
        return doomed.size();
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("QueueModel[lastId=" + lastId + ", limit=" + maxPendingJobs + "]");
        for (Row row : rows.values()) {
            text.append("\n    ").append(row.describe(origin));
        }
        return text.toString();
    }
}
