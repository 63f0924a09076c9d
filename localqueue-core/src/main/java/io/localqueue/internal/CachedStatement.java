package io.localqueue.internal;

import java.io.InputStream;
import java.io.Reader;
import java.math.BigDecimal;
import java.net.URL;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Connection;
import java.sql.Date;
import java.sql.NClob;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.Ref;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLType;
import java.sql.SQLWarning;
import java.sql.SQLXML;
import java.sql.Time;
import java.sql.Timestamp;
import java.util.Calendar;

/**
 * A prepared statement kept by {@link StatementCachingDataSource}: every call goes straight to the real statement,
 * except {@code close()}, which resets it for the next user instead of closing it.
 */
@SuppressWarnings("deprecation")
final class CachedStatement implements PreparedStatement {

    private final PreparedStatement statement;
    private boolean inUse;

    CachedStatement(PreparedStatement statement) {
        this.statement = statement;
    }

    /** Lends the statement out; false when it is lent already. */
    boolean lend() {
        if (inUse) {
            return false;
        }
        inUse = true;
        return true;
    }

    boolean inUse() {
        return inUse;
    }

    /** Closes the real statement, when its connection closes or it leaves the cache. */
    void discard() {
        try {
            statement.close();
        } catch (SQLException ignored) {
            // the connection is going away; nothing to keep
        }
    }

    /**
     * Hands the statement back for its next user. The driver keeps parameter values on the Java side until it
     * executes, and {@code clearBatch()} drops them (so no payload stays reachable); {@code clearParameters()} is
     * avoided on purpose: it also calls {@code sqlite3_clear_bindings}, which marks any statement whose plan looked
     * at a parameter as expired, so the next execution would parse and plan it again.
     */
    @Override
    public void close() throws SQLException {
        if (inUse) {
            inUse = false;
            statement.clearBatch();
        }
    }

    @Override
    public boolean isClosed() throws SQLException {
        return !inUse || statement.isClosed();
    }

    @Override
    public void addBatch() throws SQLException {
        statement.addBatch();
    }

    @Override
    public void addBatch(String a0) throws SQLException {
        statement.addBatch(a0);
    }

    @Override
    public void cancel() throws SQLException {
        statement.cancel();
    }

    @Override
    public void clearBatch() throws SQLException {
        statement.clearBatch();
    }

    @Override
    public void clearParameters() throws SQLException {
        statement.clearParameters();
    }

    @Override
    public void clearWarnings() throws SQLException {
        statement.clearWarnings();
    }

    @Override
    public void closeOnCompletion() throws SQLException {
        statement.closeOnCompletion();
    }

    @Override
    public String enquoteIdentifier(String a0, boolean a1) throws SQLException {
        return statement.enquoteIdentifier(a0, a1);
    }

    @Override
    public String enquoteLiteral(String a0) throws SQLException {
        return statement.enquoteLiteral(a0);
    }

    @Override
    public String enquoteNCharLiteral(String a0) throws SQLException {
        return statement.enquoteNCharLiteral(a0);
    }

    @Override
    public int[] executeBatch() throws SQLException {
        return statement.executeBatch();
    }

    @Override
    public long[] executeLargeBatch() throws SQLException {
        return statement.executeLargeBatch();
    }

    @Override
    public long executeLargeUpdate() throws SQLException {
        return statement.executeLargeUpdate();
    }

    @Override
    public long executeLargeUpdate(String a0, int[] a1) throws SQLException {
        return statement.executeLargeUpdate(a0, a1);
    }

    @Override
    public long executeLargeUpdate(String a0, String[] a1) throws SQLException {
        return statement.executeLargeUpdate(a0, a1);
    }

    @Override
    public long executeLargeUpdate(String a0, int a1) throws SQLException {
        return statement.executeLargeUpdate(a0, a1);
    }

    @Override
    public long executeLargeUpdate(String a0) throws SQLException {
        return statement.executeLargeUpdate(a0);
    }

    @Override
    public ResultSet executeQuery() throws SQLException {
        return statement.executeQuery();
    }

    @Override
    public ResultSet executeQuery(String a0) throws SQLException {
        return statement.executeQuery(a0);
    }

    @Override
    public int executeUpdate() throws SQLException {
        return statement.executeUpdate();
    }

    @Override
    public int executeUpdate(String a0, int[] a1) throws SQLException {
        return statement.executeUpdate(a0, a1);
    }

    @Override
    public int executeUpdate(String a0, String[] a1) throws SQLException {
        return statement.executeUpdate(a0, a1);
    }

    @Override
    public int executeUpdate(String a0, int a1) throws SQLException {
        return statement.executeUpdate(a0, a1);
    }

    @Override
    public int executeUpdate(String a0) throws SQLException {
        return statement.executeUpdate(a0);
    }

    @Override
    public boolean execute() throws SQLException {
        return statement.execute();
    }

    @Override
    public boolean execute(String a0, int[] a1) throws SQLException {
        return statement.execute(a0, a1);
    }

    @Override
    public boolean execute(String a0, String[] a1) throws SQLException {
        return statement.execute(a0, a1);
    }

    @Override
    public boolean execute(String a0, int a1) throws SQLException {
        return statement.execute(a0, a1);
    }

    @Override
    public boolean execute(String a0) throws SQLException {
        return statement.execute(a0);
    }

    @Override
    public Connection getConnection() throws SQLException {
        return statement.getConnection();
    }

    @Override
    public int getFetchDirection() throws SQLException {
        return statement.getFetchDirection();
    }

    @Override
    public int getFetchSize() throws SQLException {
        return statement.getFetchSize();
    }

    @Override
    public ResultSet getGeneratedKeys() throws SQLException {
        return statement.getGeneratedKeys();
    }

    @Override
    public long getLargeMaxRows() throws SQLException {
        return statement.getLargeMaxRows();
    }

    @Override
    public long getLargeUpdateCount() throws SQLException {
        return statement.getLargeUpdateCount();
    }

    @Override
    public int getMaxFieldSize() throws SQLException {
        return statement.getMaxFieldSize();
    }

    @Override
    public int getMaxRows() throws SQLException {
        return statement.getMaxRows();
    }

    @Override
    public ResultSetMetaData getMetaData() throws SQLException {
        return statement.getMetaData();
    }

    @Override
    public boolean getMoreResults() throws SQLException {
        return statement.getMoreResults();
    }

    @Override
    public boolean getMoreResults(int a0) throws SQLException {
        return statement.getMoreResults(a0);
    }

    @Override
    public ParameterMetaData getParameterMetaData() throws SQLException {
        return statement.getParameterMetaData();
    }

    @Override
    public int getQueryTimeout() throws SQLException {
        return statement.getQueryTimeout();
    }

    @Override
    public int getResultSetConcurrency() throws SQLException {
        return statement.getResultSetConcurrency();
    }

    @Override
    public int getResultSetHoldability() throws SQLException {
        return statement.getResultSetHoldability();
    }

    @Override
    public int getResultSetType() throws SQLException {
        return statement.getResultSetType();
    }

    @Override
    public ResultSet getResultSet() throws SQLException {
        return statement.getResultSet();
    }

    @Override
    public int getUpdateCount() throws SQLException {
        return statement.getUpdateCount();
    }

    @Override
    public SQLWarning getWarnings() throws SQLException {
        return statement.getWarnings();
    }

    @Override
    public boolean isCloseOnCompletion() throws SQLException {
        return statement.isCloseOnCompletion();
    }

    @Override
    public boolean isPoolable() throws SQLException {
        return statement.isPoolable();
    }

    @Override
    public boolean isSimpleIdentifier(String a0) throws SQLException {
        return statement.isSimpleIdentifier(a0);
    }

    @Override
    public boolean isWrapperFor(Class<?> a0) throws SQLException {
        return statement.isWrapperFor(a0);
    }

    @Override
    public void setArray(int a0, Array a1) throws SQLException {
        statement.setArray(a0, a1);
    }

    @Override
    public void setAsciiStream(int a0, InputStream a1, int a2) throws SQLException {
        statement.setAsciiStream(a0, a1, a2);
    }

    @Override
    public void setAsciiStream(int a0, InputStream a1, long a2) throws SQLException {
        statement.setAsciiStream(a0, a1, a2);
    }

    @Override
    public void setAsciiStream(int a0, InputStream a1) throws SQLException {
        statement.setAsciiStream(a0, a1);
    }

    @Override
    public void setBigDecimal(int a0, BigDecimal a1) throws SQLException {
        statement.setBigDecimal(a0, a1);
    }

    @Override
    public void setBinaryStream(int a0, InputStream a1, int a2) throws SQLException {
        statement.setBinaryStream(a0, a1, a2);
    }

    @Override
    public void setBinaryStream(int a0, InputStream a1, long a2) throws SQLException {
        statement.setBinaryStream(a0, a1, a2);
    }

    @Override
    public void setBinaryStream(int a0, InputStream a1) throws SQLException {
        statement.setBinaryStream(a0, a1);
    }

    @Override
    public void setBlob(int a0, InputStream a1, long a2) throws SQLException {
        statement.setBlob(a0, a1, a2);
    }

    @Override
    public void setBlob(int a0, InputStream a1) throws SQLException {
        statement.setBlob(a0, a1);
    }

    @Override
    public void setBlob(int a0, Blob a1) throws SQLException {
        statement.setBlob(a0, a1);
    }

    @Override
    public void setBoolean(int a0, boolean a1) throws SQLException {
        statement.setBoolean(a0, a1);
    }

    @Override
    public void setByte(int a0, byte a1) throws SQLException {
        statement.setByte(a0, a1);
    }

    @Override
    public void setBytes(int a0, byte[] a1) throws SQLException {
        statement.setBytes(a0, a1);
    }

    @Override
    public void setCharacterStream(int a0, Reader a1, int a2) throws SQLException {
        statement.setCharacterStream(a0, a1, a2);
    }

    @Override
    public void setCharacterStream(int a0, Reader a1, long a2) throws SQLException {
        statement.setCharacterStream(a0, a1, a2);
    }

    @Override
    public void setCharacterStream(int a0, Reader a1) throws SQLException {
        statement.setCharacterStream(a0, a1);
    }

    @Override
    public void setClob(int a0, Reader a1, long a2) throws SQLException {
        statement.setClob(a0, a1, a2);
    }

    @Override
    public void setClob(int a0, Reader a1) throws SQLException {
        statement.setClob(a0, a1);
    }

    @Override
    public void setClob(int a0, Clob a1) throws SQLException {
        statement.setClob(a0, a1);
    }

    @Override
    public void setCursorName(String a0) throws SQLException {
        statement.setCursorName(a0);
    }

    @Override
    public void setDate(int a0, Date a1, Calendar a2) throws SQLException {
        statement.setDate(a0, a1, a2);
    }

    @Override
    public void setDate(int a0, Date a1) throws SQLException {
        statement.setDate(a0, a1);
    }

    @Override
    public void setDouble(int a0, double a1) throws SQLException {
        statement.setDouble(a0, a1);
    }

    @Override
    public void setEscapeProcessing(boolean a0) throws SQLException {
        statement.setEscapeProcessing(a0);
    }

    @Override
    public void setFetchDirection(int a0) throws SQLException {
        statement.setFetchDirection(a0);
    }

    @Override
    public void setFetchSize(int a0) throws SQLException {
        statement.setFetchSize(a0);
    }

    @Override
    public void setFloat(int a0, float a1) throws SQLException {
        statement.setFloat(a0, a1);
    }

    @Override
    public void setInt(int a0, int a1) throws SQLException {
        statement.setInt(a0, a1);
    }

    @Override
    public void setLargeMaxRows(long a0) throws SQLException {
        statement.setLargeMaxRows(a0);
    }

    @Override
    public void setLong(int a0, long a1) throws SQLException {
        statement.setLong(a0, a1);
    }

    @Override
    public void setMaxFieldSize(int a0) throws SQLException {
        statement.setMaxFieldSize(a0);
    }

    @Override
    public void setMaxRows(int a0) throws SQLException {
        statement.setMaxRows(a0);
    }

    @Override
    public void setNCharacterStream(int a0, Reader a1, long a2) throws SQLException {
        statement.setNCharacterStream(a0, a1, a2);
    }

    @Override
    public void setNCharacterStream(int a0, Reader a1) throws SQLException {
        statement.setNCharacterStream(a0, a1);
    }

    @Override
    public void setNClob(int a0, Reader a1, long a2) throws SQLException {
        statement.setNClob(a0, a1, a2);
    }

    @Override
    public void setNClob(int a0, Reader a1) throws SQLException {
        statement.setNClob(a0, a1);
    }

    @Override
    public void setNClob(int a0, NClob a1) throws SQLException {
        statement.setNClob(a0, a1);
    }

    @Override
    public void setNString(int a0, String a1) throws SQLException {
        statement.setNString(a0, a1);
    }

    @Override
    public void setNull(int a0, int a1, String a2) throws SQLException {
        statement.setNull(a0, a1, a2);
    }

    @Override
    public void setNull(int a0, int a1) throws SQLException {
        statement.setNull(a0, a1);
    }

    @Override
    public void setObject(int a0, Object a1, int a2, int a3) throws SQLException {
        statement.setObject(a0, a1, a2, a3);
    }

    @Override
    public void setObject(int a0, Object a1, int a2) throws SQLException {
        statement.setObject(a0, a1, a2);
    }

    @Override
    public void setObject(int a0, Object a1, SQLType a2, int a3) throws SQLException {
        statement.setObject(a0, a1, a2, a3);
    }

    @Override
    public void setObject(int a0, Object a1, SQLType a2) throws SQLException {
        statement.setObject(a0, a1, a2);
    }

    @Override
    public void setObject(int a0, Object a1) throws SQLException {
        statement.setObject(a0, a1);
    }

    @Override
    public void setPoolable(boolean a0) throws SQLException {
        statement.setPoolable(a0);
    }

    @Override
    public void setQueryTimeout(int a0) throws SQLException {
        statement.setQueryTimeout(a0);
    }

    @Override
    public void setRef(int a0, Ref a1) throws SQLException {
        statement.setRef(a0, a1);
    }

    @Override
    public void setRowId(int a0, RowId a1) throws SQLException {
        statement.setRowId(a0, a1);
    }

    @Override
    public void setSQLXML(int a0, SQLXML a1) throws SQLException {
        statement.setSQLXML(a0, a1);
    }

    @Override
    public void setShort(int a0, short a1) throws SQLException {
        statement.setShort(a0, a1);
    }

    @Override
    public void setString(int a0, String a1) throws SQLException {
        statement.setString(a0, a1);
    }

    @Override
    public void setTime(int a0, Time a1, Calendar a2) throws SQLException {
        statement.setTime(a0, a1, a2);
    }

    @Override
    public void setTime(int a0, Time a1) throws SQLException {
        statement.setTime(a0, a1);
    }

    @Override
    public void setTimestamp(int a0, Timestamp a1, Calendar a2) throws SQLException {
        statement.setTimestamp(a0, a1, a2);
    }

    @Override
    public void setTimestamp(int a0, Timestamp a1) throws SQLException {
        statement.setTimestamp(a0, a1);
    }

    @Override
    public void setURL(int a0, URL a1) throws SQLException {
        statement.setURL(a0, a1);
    }

    @Override
    public void setUnicodeStream(int a0, InputStream a1, int a2) throws SQLException {
        statement.setUnicodeStream(a0, a1, a2);
    }

    @Override
    public <T> T unwrap(Class<T> a0) throws SQLException {
        return statement.unwrap(a0);
    }
}
