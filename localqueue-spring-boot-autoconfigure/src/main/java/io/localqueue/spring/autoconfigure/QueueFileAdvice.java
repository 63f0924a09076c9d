package io.localqueue.spring.autoconfigure;

import io.localqueue.DatabaseBusyException;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.LocalQueueException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What to do about a queue directory or file localqueue could not open at start, told from what the file system
 * shows once it refused: a directory that cannot be made or written, a file the application may not write, or a file
 * whose content is not a localqueue database (damaged, or another application's).
 */
final class QueueFileAdvice {

    private QueueFileAdvice() {
    }

    /**
     * Returns the action of the failure report.
     *
     * @param directory the absolute queue directory
     * @param refused what the store said
     * @return what to do, in a sentence or three
     */
    static String action(Path directory, LocalQueueException refused) {
        Path file = directory.resolve(LocalQueueDatabase.FILE_NAME);
        if (!Files.isDirectory(directory) || !Files.isWritable(directory)) {
            return "Set localqueue.path to a directory the application may create and write, or make " + directory
                    + " one: each of its parents must be a directory, not a file; the user running the application "
                    + "needs write access to it; and its file system must not be mounted read-only.";
        }
        if (Files.exists(file) && (!Files.isRegularFile(file) || !Files.isReadable(file)
                || !Files.isWritable(file))) {
            return "Give the user running the application read and write access to " + file + ", a regular file on "
                    + "a file system mounted read-write (localqueue writes it at every put and claim), or set "
                    + "localqueue.path to a directory of localqueue's own.";
        }
        if (!(refused instanceof DatabaseBusyException) && holdsData(file)) {
            return "localqueue left " + file + " as it was. If it is the queues' own file and it is damaged, stop "
                    + "every application using it, move it away with the -wal and -shm files beside it, and restore "
                    + "it from a backup (or start without it, with empty queues). If it is another application's "
                    + "file, set localqueue.path to a directory of localqueue's own.";
        }
        return "Check that localqueue.path names a directory of localqueue's own, on a local disk with room, that the "
                + "user running the application may write.";
    }

    private static boolean holdsData(Path file) {
        try {
            return Files.isRegularFile(file) && Files.size(file) > 0;
        } catch (IOException unreadable) {
            return false;
        }
    }
}
