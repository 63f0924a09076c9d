package io.localqueue.internal.store.sqlite;

import io.localqueue.LocalQueueException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.UUID;
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
            // Unlinked before the lock is released, so no later claim can lock a file that is about to vanish.
            Files.deleteIfExists(target.resolve(LOCK_NAME));
            lockChannel.close();
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
        FileChannel channel = null;
        try {
            if (leftoversOfADeadBackup(target) != null) {
                channel = FileChannel.open(target.resolve(LOCK_NAME), StandardOpenOption.CREATE,
                        StandardOpenOption.READ, StandardOpenOption.WRITE);
                BackupDestination taken = takeOver(target, channel);
                if (taken != null) {
                    return taken;
                }
                channel.close();
            }
        } catch (IOException failure) {
            LockFiles.close(channel, target);
            if (!Files.exists(target)) {
                throw new LocalQueueException("backup destination " + asGiven
                        + " was removed while this backup looked at it; another backup had claimed it", exists);
            }
            throw new LocalQueueException("cannot clear the unfinished backup in " + asGiven + ": " + failure,
                    failure);
        }
        throw new LocalQueueException("backup destination " + asGiven
                + " already exists; a backup only ever goes into a new directory", exists);
    }

    /**
     * Locks {@code channel}, opened on the directory's lock file when a first look found a dead backup's leftovers,
     * and clears them; or returns null, touching nothing, when another backup holds the lock, when the file locked
     * is one its holder unlinked in the meantime, or when the directory no longer holds only leftovers (the backup
     * that left them finished or cleared them between the first look and the lock; the lock file, which no live
     * backup holds then, is removed).
     */
    static @Nullable BackupDestination takeOver(Path target, FileChannel channel) throws IOException {
        if (tryLock(channel) == null || !holdsTheLockFile(channel, target.resolve(LOCK_NAME))) {
            return null;
        }
        List<Path> leftovers = leftoversOfADeadBackup(target);
        if (leftovers == null) {
            // The lock file under this lock is the directory's own and no live backup holds it: when opening it
            // created it, after its owner unlinked the old one, it would otherwise stay beside the finished backup.
            Files.deleteIfExists(target.resolve(LOCK_NAME));
            return null;
        }
        for (Path leftover : leftovers) {
            if (!leftover.getFileName().toString().equals(LOCK_NAME)) {
                Files.delete(leftover);
            }
        }
        log.info("Cleared the unfinished backup left in {} by a process that stopped during it", target);
        return new BackupDestination(target, channel);
    }

    /**
     * Whether the locked channel is the lock file the directory holds now, not one its holder unlinked between this
     * process opening it and locking it: a random token written through the channel must read back through the path.
     */
    private static boolean holdsTheLockFile(FileChannel channel, Path lockFile) throws IOException {
        byte[] token = UUID.randomUUID().toString().getBytes(StandardCharsets.US_ASCII);
        channel.truncate(0);
        channel.write(ByteBuffer.wrap(token), 0);
        try {
            return Arrays.equals(Files.readAllBytes(lockFile), token);
        } catch (NoSuchFileException unlinked) {
            return false;
        }
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
}
