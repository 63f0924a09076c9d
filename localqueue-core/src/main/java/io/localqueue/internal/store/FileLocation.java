package io.localqueue.internal.store;

import io.localqueue.LocalQueueException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The database file of a queue directory, named by the directory's real path.
 *
 * @param directory the directory with symbolic links resolved
 */
public record FileLocation(Path directory) implements StoreLocation {

    /** The database file's name in its directory, as the Python library names it too. */
    public static final String FILE_NAME = "localqueue.db";

    /**
     * Creates a queue directory when missing and returns its location, named by its real path.
     *
     * @param directory the queue directory as given
     * @return the location
     * @throws LocalQueueException when it cannot be created, is not a directory or is not writable
     */
    public static FileLocation prepare(Path directory) {
        try {
            Files.createDirectories(directory);
        } catch (IOException | SecurityException failure) {
            throw new LocalQueueException("cannot create queue directory " + directory + ": " + failure, failure);
        }
        if (!Files.isDirectory(directory)) {
            throw new LocalQueueException("queue path " + directory + " is not a directory");
        }
        if (!Files.isWritable(directory)) {
            throw new LocalQueueException("queue directory " + directory + " is not writable");
        }
        try {
            return new FileLocation(directory.toRealPath());
        } catch (IOException failure) {
            throw new LocalQueueException("cannot resolve queue directory " + directory + ": " + failure, failure);
        }
    }

    /**
     * Returns the location of an existing queue directory holding a file, creating and changing nothing.
     *
     * @param directory the queue directory as given
     * @return the location
     * @throws LocalQueueException when the directory or its {@value #FILE_NAME} is missing
     */
    public static FileLocation existing(Path directory) {
        if (!Files.isDirectory(directory)) {
            throw new LocalQueueException("no queue directory at " + directory);
        }
        if (!Files.isRegularFile(directory.resolve(FILE_NAME))) {
            throw new LocalQueueException("no queue file in " + directory + " (" + FILE_NAME + " is missing)");
        }
        try {
            return new FileLocation(directory.toRealPath());
        } catch (IOException failure) {
            throw new LocalQueueException("cannot resolve queue directory " + directory + ": " + failure, failure);
        }
    }

    /**
     * Returns the database file.
     *
     * @return the directory's {@value #FILE_NAME}
     */
    public Path file() {
        return directory.resolve(FILE_NAME);
    }
}
