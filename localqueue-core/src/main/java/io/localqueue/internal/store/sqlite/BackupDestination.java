package io.localqueue.internal.store.sqlite;

import io.localqueue.LocalQueueException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The directory one backup writes into, held from its claim until {@link #close()}. A backup only goes into a new
 * directory, or into one that holds nothing but what a backup that died before its last step left there (the
 * staged copy, its sidecars and its lock file, the lock not held by anyone); while a backup runs it holds an OS
 * lock on a lock file in the directory, which dies with its process, so a live backup's files are never taken for
 * leftovers.
 */
final class BackupDestination implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(BackupDestination.class);

    static final String STAGED_NAME = ".localqueue.db.incomplete";
    private static final String LOCK_NAME = STAGED_NAME + ".lock";

    /**
     * Destinations claimed in this JVM. The OS lock only guards against other processes: closing any channel on the
     * lock file releases every lock this JVM holds on it, so a claim here never opens the file a live claim holds.
     */
    private static final Set<Path> CLAIMED_HERE = ConcurrentHashMap.newKeySet();

    private final Path target;
    private final FileChannel lockChannel;
    private boolean complete;

    private BackupDestination(Path target, FileChannel lockChannel) {
        this.target = target;
        this.lockChannel = lockChannel;
    }

    /**
     * Claims {@code target} for a backup.
     *
     * @param target the resolved destination directory
     * @param asGiven the destination as the caller spelled it, for messages
     * @return the claimed destination; the caller closes it
     * @throws LocalQueueException when it exists and holds anything else, or another backup is writing it
     */
    static BackupDestination claim(Path target, Path asGiven) {
        if (!CLAIMED_HERE.add(target)) {
            throw new LocalQueueException("backup destination " + asGiven + " already exists; another backup of "
                    + "this process is writing it", new FileAlreadyExistsException(target.toString()));
        }
        try {
            try {
                Files.createDirectory(target);
                FileChannel channel = FileChannel.open(target.resolve(LOCK_NAME), StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE);
                channel.lock();
                return new BackupDestination(target, channel);
            } catch (FileAlreadyExistsException exists) {
                return reclaim(target, asGiven, exists);
            } catch (IOException failure) {
                throw new LocalQueueException("cannot create backup directory " + asGiven + ": " + failure, failure);
            }
        } catch (RuntimeException refused) {
            CLAIMED_HERE.remove(target);
            throw refused;
        }
    }

    /** The staged copy's path. */
    Path staged() {
        return target.resolve(STAGED_NAME);
    }

    /** Marks the backup as finished, so closing keeps what it wrote. */
    void complete() {
        complete = true;
    }

    /** Releases the directory; an unfinished backup's files and the directory go too. */
    @Override
    public void close() {
        try {
            if (!complete) {
                for (Path file : contents(target)) {
                    if (!file.getFileName().toString().equals(LOCK_NAME)) {
                        Files.deleteIfExists(file);
                    }
                }
            }
            lockChannel.close();
            Files.deleteIfExists(target.resolve(LOCK_NAME));
            if (!complete) {
                Files.deleteIfExists(target);
            }
        } catch (IOException failure) {
            log.warn("Could not remove the incomplete backup in {}", target, failure);
        } finally {
            CLAIMED_HERE.remove(target);
        }
    }

    private static BackupDestination reclaim(Path target, Path asGiven, FileAlreadyExistsException exists) {
        List<Path> leftovers = leftoversOfADeadBackup(target);
        FileChannel channel = null;
        try {
            if (leftovers != null) {
                channel = FileChannel.open(target.resolve(LOCK_NAME), StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE);
                if (tryLock(channel) != null) {
                    for (Path leftover : leftovers) {
                        if (!leftover.getFileName().toString().equals(LOCK_NAME)) {
                            Files.delete(leftover);
                        }
                    }
                    log.info("Cleared the unfinished backup left in {} by a process that stopped during it", target);
                    return new BackupDestination(target, channel);
                }
                channel.close();
            }
        } catch (IOException failure) {
            closeQuietly(channel);
            throw new LocalQueueException("cannot clear the unfinished backup in " + asGiven + ": " + failure,
                    failure);
        }
        throw new LocalQueueException("backup destination " + asGiven
                + " already exists; a backup only ever goes into a new directory", exists);
    }

    /** The files of a dead backup (the staged copy among them), or null when the directory holds anything else. */
    private static @Nullable List<Path> leftoversOfADeadBackup(Path target) {
        List<Path> files;
        try {
            files = contents(target);
        } catch (IOException notADirectory) {
            return null;
        }
        boolean onlyStaged = files.stream().allMatch(file -> Files.isRegularFile(file)
                && file.getFileName().toString().startsWith(STAGED_NAME));
        boolean stagedCopy = files.stream().anyMatch(file -> file.getFileName().toString().equals(STAGED_NAME));
        return onlyStaged && stagedCopy ? files : null;
    }

    private static @Nullable FileLock tryLock(FileChannel channel) throws IOException {
        try {
            return channel.tryLock();
        } catch (OverlappingFileLockException heldInThisProcess) {
            return null;
        }
    }

    private static List<Path> contents(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            return files.toList();
        }
    }

    private static void closeQuietly(@Nullable FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // the lock goes with the channel either way
            }
        }
    }
}
