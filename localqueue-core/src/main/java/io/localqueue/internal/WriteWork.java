package io.localqueue.internal;

import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The statements of one write transaction; the store runs them between {@code BEGIN IMMEDIATE} and {@code COMMIT}
 * and may run them again from the start when SQLite reports lock contention.
 *
 * @param <R> the result type
 */
@FunctionalInterface
public interface WriteWork<R> {

    /**
     * Runs the statements; throwing rolls the transaction back.
     *
     * @param jdbc a template bound to the transaction's connection
     * @return the result handed back to the caller after the commit
     */
    R run(JdbcTemplate jdbc);
}
