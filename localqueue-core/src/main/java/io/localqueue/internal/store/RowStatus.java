package io.localqueue.internal.store;

/**
 * The status codes of a {@code messages} row, as both libraries and every store write them: the layout's words, kept
 * here once for every store.
 */
public final class RowStatus {

    /** Waiting to be claimed, once due. */
    public static final int READY = 0;
    /** Claimed under a lease. */
    public static final int LEASED = 1;
    /** Acknowledged. */
    public static final int ACKED = 2;
    /** A dead letter. */
    public static final int FAILED = 3;

    private RowStatus() {
    }
}
