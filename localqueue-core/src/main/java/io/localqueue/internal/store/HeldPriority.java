package io.localqueue.internal.store;

/**
 * How every store marks a ready job that a full concurrency key holds back: its priority is stored shifted past every
 * priority a job can have, so the job leaves the priorities claims walk (a claim under a per-key limit walks only up to
 * {@link #CLAIMABLE}) and enters a small index of held jobs by key, without a column or an index more on the jobs of
 * queues that use no such limit. A claim that configures no limit reaches held jobs after every
 * other, and a lease restores the priority, so a held job never leaves the queue.
 */
public final class HeldPriority {

    /** What holding a job adds to its priority: held priorities are 9,000 to 11,000, within PostgreSQL's smallint. */
    public static final int SHIFT = 10_000;

    /**
     * The largest priority a job that is not held has, {@link io.localqueue.EnqueueOptions#LOWEST_PRIORITY}; the
     * stores write it into their statements as a literal, which their partial indexes need.
     */
    public static final int CLAIMABLE = 1000;

    private HeldPriority() {
    }

    /**
     * Returns a SQL expression of a stored priority column as the job's own priority: held ones shifted back, NULL
     * (the SQLite default a claim has not yet swept) as 0.
     *
     * @param column the column, qualified as the statement needs
     * @return the expression
     */
    public static String decoded(String column) {
        return "CASE WHEN " + column + " > " + CLAIMABLE + " THEN " + column + " - " + SHIFT
                + " ELSE COALESCE(" + column + ", 0) END";
    }

    /**
     * Returns a SQL expression that sets a priority column back to the job's own when a claim leases it, keeping NULL.
     *
     * @param column the column
     * @return the expression
     */
    public static String released(String column) {
        return "CASE WHEN " + column + " > " + CLAIMABLE + " THEN " + column + " - " + SHIFT + " ELSE " + column
                + " END";
    }
}
