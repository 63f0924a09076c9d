package io.localqueue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ServiceLoader;

/**
 * Opens a test's database on the store under test: the SQLite file in the test's directory, or, when the system
 * property {@value #PROPERTY} names another {@link TestStore}, that store's database for the directory. Tests that
 * must hold on every store carry the tag {@value #CONTRACT}, which a run on another store selects: the bases
 * {@link QueueTestBase} and {@code BusTestBase} carry it, so every test of the API through a database runs on both
 * unless it says otherwise. Tests that check what only a file has carry the tag {@value #FILE_ONLY}, which a run on
 * another store excludes.
 */
public final class TestDatabases {

    /** The system property naming the store under test; unset means SQLite. */
    public static final String PROPERTY = "localqueue.test.store";

    /** The tag of tests that must hold on every store, which another store's run selects. */
    public static final String CONTRACT = "contract";

    /** The tag of tests that only a SQLite file can pass: raw SQL on the file, its path, its copy. */
    public static final String FILE_ONLY = "file-only";

    private static final TestStore STORE = chosen();

    private TestDatabases() {
    }

    /**
     * Opens the database of a test's directory on the store under test; the same database for every call.
     *
     * @param directory the test's temporary directory
     * @return a handle the caller closes
     */
    public static LocalQueueDatabase open(Path directory) {
        return STORE.open(directory);
    }

    /**
     * Opens a raw connection to the test's database; see {@link TestStore#connect(Path)}.
     *
     * @param directory the test's temporary directory
     * @return a connection the caller closes
     * @throws SQLException when the database cannot be reached
     */
    public static Connection connect(Path directory) throws SQLException {
        return STORE.connect(directory);
    }

    /**
     * Tells whether the store under test is the SQLite file.
     *
     * @return true unless another store was chosen
     */
    public static boolean onFile() {
        return STORE instanceof FileStore;
    }

    private static TestStore chosen() {
        String name = System.getProperty(PROPERTY, "sqlite");
        if (name.equals("sqlite")) {
            return new FileStore();
        }
        return ServiceLoader.load(TestStore.class).stream().map(ServiceLoader.Provider::get)
                .filter(store -> store.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalStateException("no TestStore named '" + name + "' is on the class path"));
    }

    private static final class FileStore implements TestStore {

        @Override
        public String name() {
            return "sqlite";
        }

        @Override
        public LocalQueueDatabase open(Path directory) {
            return LocalQueueDatabase.open(directory);
        }

        @Override
        public Connection connect(Path directory) throws SQLException {
            return DriverManager.getConnection("jdbc:sqlite:" + directory.resolve(LocalQueueDatabase.FILE_NAME));
        }
    }
}
