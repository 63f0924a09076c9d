package io.localqueue.benchmark;

import java.sql.SQLException;
import java.util.List;

/**
 * One raw JDBC connection's steps of a job's life, as both stores' baselines speak them, so that the workloads they
 * share ({@link RawJobWorkloads}) are written once.
 *
 * @param <C> what a claim returns for each row
 */
interface RawJobs<C> extends AutoCloseable {

    /** Begins a transaction. */
    void begin() throws SQLException;

    /** Commits the transaction. */
    void commit() throws SQLException;

    /** Inserts one ready row. */
    void insert(byte[] payload) throws SQLException;

    /** Inserts {@code rows} ready rows in one statement. */
    void insertBatch(byte[] payload, int rows) throws SQLException;

    /** Leases up to {@code limit} due rows in claim order. */
    List<C> claim(int limit) throws SQLException;

    /** Acknowledges one claimed row, fenced by its receipt; returns the rows matched. */
    int ack(C row) throws SQLException;

    /** Counts the queue's rows in a status (0 ready, 2 acknowledged). */
    long count(int status) throws SQLException;

    @Override
    void close() throws SQLException;
}
