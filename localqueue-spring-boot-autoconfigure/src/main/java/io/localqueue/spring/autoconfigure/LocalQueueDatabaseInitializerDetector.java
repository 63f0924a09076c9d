package io.localqueue.spring.autoconfigure;

import io.localqueue.LocalQueueDatabase;
import java.util.Set;
import org.springframework.boot.sql.init.dependency.AbstractBeansOfTypeDatabaseInitializerDetector;
import org.springframework.core.Ordered;

/**
 * Counts each {@link LocalQueueDatabase} bean among the database initializers, ahead of the others: Boot's SQL
 * scripts, Flyway and Liquibase then run after localqueue opened its file. An application whose own tables live in
 * the queue's SQLite file (to join its transactions) thus adds them to a file localqueue already made its own,
 * instead of one that holds other tables but no {@code messages} table, which localqueue refuses to open.
 */
final class LocalQueueDatabaseInitializerDetector extends AbstractBeansOfTypeDatabaseInitializerDetector {

    @Override
    protected Set<Class<?>> getDatabaseInitializerBeanTypes() {
        return Set.of(LocalQueueDatabase.class);
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }
}
