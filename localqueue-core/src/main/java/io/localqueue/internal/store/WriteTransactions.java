package io.localqueue.internal.store;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.TransactionException;
import org.springframework.transaction.TransactionStatus;
import org.springframework.transaction.support.AbstractPlatformTransactionManager;
import org.springframework.transaction.support.DefaultTransactionDefinition;

/**
 * How every store runs one attempt of a write transaction: through Spring's {@link DataSourceTransactionManager}
 * over the connections the store writes with, always as a transaction of its own (a store's write never joins a
 * transaction the caller's thread holds on the same data source; it suspends it, as
 * {@link TransactionDefinition#PROPAGATION_REQUIRES_NEW} does). The work runs between the manager's begin and commit
 * on the connection the manager bound, so a store keeps its statements prepared on that connection.
 *
 * <p>Which step failed decides what a store may do next (take its turn again, report the store unreachable, or say a
 * commit's outcome is unknown), so a failure of the database reaches the store as a {@link Failure} naming the step
 * and carrying the driver's own {@link SQLException}, out of Spring's wrappers; the store translates it into the
 * library's exceptions in one place of its own. Anything else the work throws rolls the transaction back and reaches
 * the caller unchanged, as does a rollback's own failure, added to it as suppressed.
 */
public final class WriteTransactions {

    private static final TransactionDefinition OWN_TRANSACTION =
            new DefaultTransactionDefinition(TransactionDefinition.PROPAGATION_REQUIRES_NEW);

    private final DataSource dataSource;
    private final DataSourceTransactionManager manager;

    /**
     * Creates the write transactions of one data source.
     *
     * @param dataSource lends each transaction its connection
     */
    public WriteTransactions(DataSource dataSource) {
        this.dataSource = dataSource;
        this.manager = new DataSourceTransactionManager(dataSource);
        // No store registers synchronizations, so none are set up per transaction.
        manager.setTransactionSynchronization(AbstractPlatformTransactionManager.SYNCHRONIZATION_NEVER);
    }

    /** The statements of one transaction, on the connection it runs on. */
    @FunctionalInterface
    public interface Work<R extends @Nullable Object> {
        /**
         * Runs the statements; the transaction commits after a normal return.
         *
         * @param connection the transaction's connection, which the work must not close or commit
         * @return the result
         * @throws SQLException when the database fails, which rolls the transaction back
         */
        R run(Connection connection) throws SQLException;
    }

    /** The step of a transaction at which the database failed. */
    public enum Step {
        /** Obtaining the connection or beginning the transaction: nothing ran. */
        BEGIN,
        /** A statement of the work: the transaction was rolled back. */
        WORK,
        /** The commit: whether it took effect depends on the database and the failure. */
        COMMIT
    }

    /** A database failure of one step of a write transaction, with the driver's exception as its cause. */
    public static final class Failure extends Exception {
        private static final long serialVersionUID = 1L;

        private final Step step;

        Failure(Step step, SQLException cause) {
            super(step + ": " + cause.getMessage(), cause, false, false);
            this.step = step;
        }

        /**
         * Returns the step that failed.
         *
         * @return the step
         */
        public Step step() {
            return step;
        }

        /**
         * Returns the driver's exception.
         *
         * @return the failure of the database
         */
        public SQLException sql() {
            return (SQLException) getCause();
        }
    }

    /**
     * Runs {@code work} in one new transaction and commits it.
     *
     * @param work the statements
     * @param <R> the result type
     * @return what {@code work} returned, after the commit
     * @throws Failure when the database failed at one step; a failed work or commit has been rolled back
     */
    public <R extends @Nullable Object> R run(Work<R> work) throws Failure {
        TransactionStatus status;
        try {
            status = manager.getTransaction(OWN_TRANSACTION);
        } catch (TransactionException failure) {
            throw failure(Step.BEGIN, failure);
        }
        R result;
        try {
            Connection connection = DataSourceUtils.getConnection(dataSource);
            try {
                result = work.run(connection);
            } finally {
                DataSourceUtils.releaseConnection(connection, dataSource);
            }
        } catch (SQLException failure) {
            rollBack(status, failure);
            throw new Failure(Step.WORK, failure);
        } catch (RuntimeException | Error failure) {
            rollBack(status, failure);
            throw failure;
        }
        try {
            manager.commit(status);
        } catch (TransactionException failure) {
            throw failure(Step.COMMIT, failure);
        }
        return result;
    }

    private void rollBack(TransactionStatus status, Throwable failure) {
        try {
            manager.rollback(status);
        } catch (TransactionException alsoFailed) {
            failure.addSuppressed(alsoFailed);
        }
    }

    /** The failure of a step as the driver's exception beneath Spring's, or Spring's own when none lies beneath. */
    private static Failure failure(Step step, TransactionException failure) {
        for (Throwable cause = failure.getCause(); cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql) {
                return new Failure(step, sql);
            }
        }
        throw failure;
    }
}
