package io.localqueue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * A kind of database the shared contract tests run on, found through {@link java.util.ServiceLoader} when the system
 * property {@value TestDatabases#PROPERTY} names it: the SQLite file of a test's temporary directory by default, or a
 * database server another module's tests provide.
 */
public interface TestStore {

    /**
     * Names this kind, as the system property does.
     *
     * @return such as "postgresql"
     */
    String name();

    /**
     * Opens the database of a test: the same one for every call with one directory, and none other test's.
     *
     * @param directory the test's temporary directory
     * @return a handle the caller closes
     */
    LocalQueueDatabase open(Path directory);

    /**
     * Opens a raw connection, in auto-commit mode, on which the unqualified names of the layout's tables
     * ({@code messages}, {@code message_headers}…) reach the test's database, for tests that damage or inspect
     * rows in SQL both stores speak.
     *
     * @param directory the test's temporary directory
     * @return a connection the caller closes
     * @throws SQLException when the database cannot be reached
     */
    Connection connect(Path directory) throws SQLException;
}
