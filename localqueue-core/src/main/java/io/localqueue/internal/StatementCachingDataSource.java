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
        private final Map<String, CachedStatement> statements = new LinkedHashMap<>(16, 0.75f, true);

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
            CachedStatement cached = statements.get(sql);
            if (cached == null) {
                cached = new CachedStatement(connection.prepareStatement(sql));
                cached.lend();
                statements.put(sql, cached);
                evictBeyondCapacity();
                return cached;
            }
            return cached.lend() ? cached : connection.prepareStatement(sql);
        }

        private void evictBeyondCapacity() {
            Iterator<CachedStatement> eldest = statements.values().iterator();
            while (statements.size() > CAPACITY && eldest.hasNext()) {
                CachedStatement candidate = eldest.next();
                if (!candidate.inUse()) {
                    eldest.remove();
                    candidate.discard();
                }
            }
        }

        private void closeAll() {
            statements.values().forEach(CachedStatement::discard);
            statements.clear();
        }
    }
}
