package io.localqueue.benchmark;

/**
 * One workload of the raw JDBC baseline: the minimal SQLite statements for the work a scenario does through the
 * engine, on the same schema, so that each scenario can be expressed as a fraction of what SQLite itself allows.
 *
 * @param kind what the workload does
 * @param batch rows per transaction for inserts, 1 otherwise
 */
public record RawWorkload(Kind kind, int batch) {

    /** Claim one job in one transaction, acknowledge it in a second. */
    public static final RawWorkload CLAIM_ACK = new RawWorkload(Kind.CLAIM_ACK, 1);

    /** Insert, claim and acknowledge one job in three transactions. */
    public static final RawWorkload PUT_CLAIM_ACK = new RawWorkload(Kind.PUT_CLAIM_ACK, 1);

    /** One producer inserting 1,000 rows per transaction, two consumers claiming and acknowledging 100 at a time. */
    public static final RawWorkload PIPELINE = new RawWorkload(Kind.PIPELINE, 1);

    /** The kinds of raw work. */
    public enum Kind {
        /** Inserts, {@code batch} rows per transaction. */
        INSERT,
        /** Claim then acknowledge, one job per transaction each. */
        CLAIM_ACK,
        /** Insert, claim, acknowledge: three transactions per job. */
        PUT_CLAIM_ACK,
        /** Batched producer and consumers running at once. */
        PIPELINE
    }

    /**
     * Inserts of {@code rowsPerTransaction} rows per transaction: one {@code executeUpdate} for 1, one
     * {@code executeBatch} otherwise.
     *
     * @param rowsPerTransaction rows per transaction, at least 1
     * @return the workload
     */
    public static RawWorkload insert(int rowsPerTransaction) {
        if (rowsPerTransaction < 1) {
            throw new IllegalArgumentException("rowsPerTransaction must be at least 1, got " + rowsPerTransaction);
        }
        return new RawWorkload(Kind.INSERT, rowsPerTransaction);
    }

    /**
     * Returns the name used in reports.
     *
     * @return such as {@code insert-batch-1000} or {@code claim+ack-2tx}
     */
    public String name() {
        return switch (kind) {
            case INSERT -> batch == 1 ? "insert-1" : "insert-batch-" + batch;
            case CLAIM_ACK -> "claim+ack-2tx";
            case PUT_CLAIM_ACK -> "put+claim+ack-3tx";
            case PIPELINE -> "pipeline-1p2c-batched";
        };
    }
}
