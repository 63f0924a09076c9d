package io.localqueue.internal;

import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Queries that must see one consistent snapshot; the store runs them inside one deferred read transaction.
 *
 * @param <R> the result type
 */
@FunctionalInterface
public interface ReadWork<R> {

    /**
     * Runs the queries.
     *
     * @param jdbc a template bound to the snapshot's connection
     * @return the result
     */
    R run(JdbcTemplate jdbc);
}
