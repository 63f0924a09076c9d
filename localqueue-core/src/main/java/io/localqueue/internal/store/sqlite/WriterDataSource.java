package io.localqueue.internal.store.sqlite;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.datasource.AbstractDataSource;

/**
 * The writer's one connection as Spring's transaction manager sees it. Its transaction statements are SQLite's own,
 * held on the writer's {@link Session} like any other statement: {@code setAutoCommit(false)} runs
 * {@code BEGIN IMMEDIATE}, {@code commit()} runs {@code COMMIT}, {@code rollback()} runs {@code ROLLBACK}, and
 * {@code close()} leaves the connection open for the next write.
 *
 * <p>sqlite-jdbc's own transaction mode is not used because its {@code commit()} begins the next transaction at
 * once, taking the write lock again until auto-commit is restored: that costs a lock per write and, when another
 * process holds the lock at that moment, makes a commit that took effect report a failure. The connection itself
 * stays in sqlite-jdbc's auto-commit mode throughout.
 *
 * <p>A {@code ROLLBACK} that fails leaves the connection in doubt, so it is handed to {@code broken}, which closes
 * it; the next write opens a fresh one. Restoring auto-commit while a transaction is still open (a commit that
 * failed) rolls it back.
 */
final class WriterDataSource extends AbstractDataSource {

    private static final Logger log = LoggerFactory.getLogger(WriterDataSource.class);

    private @Nullable Connection current;

    /**
     * Lends {@code session}'s connection to the transactions that follow, until {@link #clear()}.
     *
     * @param session the writer's session
     * @param broken closes the session after a rollback failed
     */
    void use(Session session, Runnable broken) {
        current = (Connection) Proxy.newProxyInstance(WriterDataSource.class.getClassLoader(),
                new Class<?>[] {Connection.class}, new Transactional(session, broken));
    }

    /** Lends no connection until the next {@link #use}. */
    void clear() {
        current = null;
    }

    @Override
    public Connection getConnection() throws SQLException {
        Connection lent = current;
        if (lent == null) {
            throw new SQLException("the writer connection is closed");
        }
        return lent;
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        return getConnection();
    }

    /** Routes the transaction calls to SQLite's statements and everything else to the session's connection. */
    private static final class Transactional implements InvocationHandler {
        private final Session session;
        private final Runnable broken;
        private boolean inTransaction;

        Transactional(Session session, Runnable broken) {
            this.session = session;
            this.broken = broken;
        }

        @Override
        public @Nullable Object invoke(Object proxy, Method method, Object @Nullable [] args) throws Throwable {
            switch (method.getName()) {
                case "getAutoCommit":
                    return !inTransaction;
                case "setAutoCommit":
                    setAutoCommit((Boolean) args[0]);
                    return null;
                case "commit":
                    requireTransaction("commit");
                    session.control("COMMIT");
                    inTransaction = false;
                    return null;
                case "rollback":
                    if (args == null) {
                        rollback();
                        return null;
                    }
                    break;
                case "close":
                    return null;
                case "equals":
                    return proxy == args[0];
                case "hashCode":
                    return System.identityHashCode(proxy);
                case "toString":
                    return "writer connection of " + session.connection();
                default:
                    break;
            }
            try {
                return method.invoke(session.connection(), args);
            } catch (InvocationTargetException failure) {
                throw failure.getCause();
            }
        }

        private void setAutoCommit(boolean autoCommit) throws SQLException {
            if (!autoCommit && !inTransaction) {
                session.control("BEGIN IMMEDIATE");
                inTransaction = true;
            } else if (autoCommit && inTransaction) {
                rollback();
            }
        }

        private void rollback() {
            if (!inTransaction) {
                return;
            }
            inTransaction = false;
            try {
                session.control("ROLLBACK");
            } catch (SQLException failure) {
                log.debug("Rollback on the writer connection failed; it is reopened", failure);
                broken.run();
            }
        }

        private void requireTransaction(String call) throws SQLException {
            if (!inTransaction) {
                throw new SQLException(call + " without a transaction on the writer connection");
            }
        }
    }
}
