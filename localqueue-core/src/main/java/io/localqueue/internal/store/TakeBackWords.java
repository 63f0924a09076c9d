package io.localqueue.internal.store;

import io.localqueue.FailureReason;

/**
 * The words every store writes when it takes a lease back or dead-letters a row whose delivery budget is spent: the
 * reason code and the two halves of the last error around "attempts of max_attempts". Kept here once, so that a
 * dead letter reads the same on every store.
 */
public final class TakeBackWords {

    /** Where a statement's text writes the reason code of a row whose delivery budget is spent. */
    public static final String RETRIES_EXHAUSTED = "{retries_exhausted}";

    /** What a last error says before the delivery count, for a lease that ran out. */
    public static final String EXPIRED_WORDS = "lease expired on delivery ";

    /** What a last error says after the delivery count, for a lease that ran out. */
    public static final String EXPIRED_REASON = ": the job was not settled before its lease ran out";

    /** What a last error says before the delivery count, for a lease of a holder that ended. */
    public static final String ABANDONED_WORDS = "lease taken back on delivery ";

    /** What a last error says after the delivery count, for a lease of a holder that ended. */
    public static final String ABANDONED_REASON = ": the process holding it ended before the job was settled";

    private TakeBackWords() {
    }

    /**
     * Returns a statement's text with the reason code written in where it says {@link #RETRIES_EXHAUSTED}.
     *
     * @param sql the statement's text
     * @return the text with the code as a SQL string literal
     */
    public static String written(String sql) {
        return sql.replace(RETRIES_EXHAUSTED, "'" + FailureReason.RETRIES_EXHAUSTED.value() + "'");
    }
}
