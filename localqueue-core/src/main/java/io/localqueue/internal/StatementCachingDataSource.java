package io.localqueue.internal;

import java.io.PrintWriter;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * Hands out connections that keep their prepared statements: SQLite parses a statement on every prepare, and the
 * queue's statements are few and run constantly. A statement "closed" by its user is reset and kept for the next
 * prepare of the same SQL on that connection; a statement still in use when the same SQL is prepared again is not
 * shared (a fresh one is prepared); at most {@value #CAPACITY} statements are kept per connection, least recently
 * used first out, and all are closed with the connection.
 */
final class StatementCachingDataSource implements DataSource {

    static final int CAPACITY = 64;

    private final DataSource target;

    StatementCachingDataSource(DataSource target) {
        this.target = target;
    }

    @Override
    public Connection getConnection() throws SQLException {
        return wrap(target.getConnection());
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        return wrap(target.getConnection(username, password));
    }

    private static Connection wrap(Connection connection) {
        return (Connection) Proxy.newProxyInstance(StatementCachingDataSource.class.getClassLoader(),
                new Class<?>[] {Connection.class}, new CachingConnection(connection));
    }

    @Override
    public PrintWriter getLogWriter() throws SQLException {
        return target.getLogWriter();
    }

    @Override
    public void setLogWriter(PrintWriter out) throws SQLException {
        target.setLogWriter(out);
    }

    @Override
    public void setLoginTimeout(int seconds) throws SQLException {
        target.setLoginTimeout(seconds);
    }

    @Override
    public int getLoginTimeout() throws SQLException {
        return target.getLoginTimeout();
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        return target.getParentLogger();
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
        return type.isInstance(target) ? type.cast(target) : target.unwrap(type);
    }

    @Override
    public boolean isWrapperFor(Class<?> type) throws SQLException {
        return type.isInstance(target) || target.isWrapperFor(type);
    }

    /** Serves {@code prepareStatement(String)} from the cache; everything else goes to the real connection. */
    private static final class CachingConnection implements InvocationHandler {

        private final Connection connection;
        private final Map<String, Cached> statements = new LinkedHashMap<>(16, 0.75f, true);

        CachingConnection(Connection connection) {
            this.connection = connection;
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            String name = method.getName();
            if (name.equals("prepareStatement") && args != null && args.length == 1) {
                return prepare((String) args[0]);
            }
            if (name.equals("close")) {
                closeAll();
            }
            if (name.equals("unwrap") && args != null && ((Class<?>) args[0]).isInstance(connection)) {
                return connection;
            }
            try {
                return method.invoke(connection, args);
            } catch (InvocationTargetException thrown) {
                throw thrown.getCause();
            }
        }

        private PreparedStatement prepare(String sql) throws SQLException {
            Cached cached = statements.get(sql);
            if (cached == null) {
                cached = new Cached(connection.prepareStatement(sql));
                statements.put(sql, cached);
                evictBeyondCapacity();
            } else if (cached.inUse) {
                return connection.prepareStatement(sql);
            }
            cached.inUse = true;
            return cached.proxy;
        }

        private void evictBeyondCapacity() {
            Iterator<Cached> eldest = statements.values().iterator();
            while (statements.size() > CAPACITY && eldest.hasNext()) {
                Cached candidate = eldest.next();
                if (!candidate.inUse) {
                    eldest.remove();
                    candidate.closeQuietly();
                }
            }
        }

        private void closeAll() {
            statements.values().forEach(Cached::closeQuietly);
            statements.clear();
        }
    }

    /** One kept statement and the proxy its users see, whose {@code close()} only resets it. */
    private static final class Cached implements InvocationHandler {

        final PreparedStatement statement;
        final PreparedStatement proxy;
        boolean inUse;

        Cached(PreparedStatement statement) {
            this.statement = statement;
            this.proxy = (PreparedStatement) Proxy.newProxyInstance(StatementCachingDataSource.class.getClassLoader(),
                    new Class<?>[] {PreparedStatement.class}, this);
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            String name = method.getName();
            if (name.equals("close")) {
                if (inUse) {
                    inUse = false;
                    statement.clearParameters();
                    statement.clearBatch();
                }
                return null;
            }
            if (name.equals("isClosed")) {
                return !inUse || statement.isClosed();
            }
            try {
                return method.invoke(statement, args);
            } catch (InvocationTargetException thrown) {
                throw thrown.getCause();
            }
        }

        void closeQuietly() {
            try {
                statement.close();
            } catch (SQLException ignored) {
                // the connection is going away; nothing to keep
            }
        }
    }
}
