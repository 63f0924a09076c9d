package io.localqueue.internal.store;

import io.localqueue.JobCursor;
import io.localqueue.JobState;
import org.jspecify.annotations.Nullable;

/**
 * One page of a queue's jobs in one state, after a cursor: waiting jobs ({@link JobState#READY},
 * {@link JobState#DELAYED}) in claim order (stored priority, due time, id), the others in due time, then id; every
 * store walks an index in that order and stops at the page's end.
 *
 * @param queue the queue
 * @param state the state
 * @param now the queue's clock, epoch milliseconds: what divides due from delayed
 * @param after where the previous page ended, or null for the first page
 * @param limit how many rows at most, 1 or more
 */
public record JobPageRequest(String queue, JobState state, long now, @Nullable JobCursor after, int limit) {

    /** Whether the page is in claim order: the stored priority leads its cursor. */
    public boolean inClaimOrder() {
        return state == JobState.READY || state == JobState.DELAYED;
    }

    /** The status code of the rows the page lists. */
    public int status() {
        return switch (state) {
            case READY, DELAYED -> RowStatus.READY;
            case LEASED -> RowStatus.LEASED;
            case ACKED -> RowStatus.ACKED;
            case FAILED -> RowStatus.FAILED;
        };
    }

    /** The cursor's priority, or the lowest there is for the first page. */
    public int afterPriority() {
        return after == null ? Integer.MIN_VALUE : inClaimOrder() ? after.priority() : 0;
    }

    /** The cursor's due time, or the earliest there is for the first page. */
    public long afterDueAt() {
        return after == null ? Long.MIN_VALUE : after.dueAt().toEpochMilli();
    }

    /** The cursor's id, or below every id for the first page. */
    public long afterId() {
        return after == null ? Long.MIN_VALUE : after.id();
    }
}
