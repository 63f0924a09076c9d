package io.localqueue.internal.store;

/** What retrying one dead letter did. */
public enum DeadLetterRetry {
    /** The job is ready again with a fresh budget. */
    RETRIED,
    /** No dead letter of the queue has that id: nothing changed. */
    NOT_A_DEAD_LETTER,
    /** The queue is at its pending-job limit: nothing changed. */
    QUEUE_FULL
}
