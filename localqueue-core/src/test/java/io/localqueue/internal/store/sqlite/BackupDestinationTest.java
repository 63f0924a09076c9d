package io.localqueue.internal.store.sqlite;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.LocalQueueDatabase;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A backup that found a dead backup's leftovers at its first look opens the lock file and only then locks it; by
 * then the backup that left them may have finished, cleared them, or been followed by a new one. Each case is set up
 * here as the directory stands at the moment of the lock.
 */
class BackupDestinationTest {

    private static final String STAGED = BackupDestination.STAGED_NAME;
    private static final String LOCK = STAGED + ".lock";

    @TempDir
    Path target;

    @Test
    void leftoversStillThereUnderTheLockAreCleared() throws Exception {
        Files.writeString(target.resolve(STAGED), "half a copy", UTF_8);
        Files.writeString(target.resolve(STAGED + "-journal"), "its journal", UTF_8);
        FileChannel channel = openLockFile();

        try (BackupDestination taken = BackupDestination.takeOver(target, channel)) {
            assertThat(taken).isNotNull();
            assertThat(names()).containsExactly(LOCK);
        }
    }

    @Test
    void aBackupThatFinishedBeforeTheLockIsLeftAlone() throws Exception {
        Files.writeString(target.resolve(STAGED), "the copy", UTF_8);
        FileChannel channel = openLockFile();
        // the owner renamed its verified copy into place, unlinked its lock file and released the lock
        Files.move(target.resolve(STAGED), target.resolve(LocalQueueDatabase.FILE_NAME));
        Files.delete(target.resolve(LOCK));

        assertThat(BackupDestination.takeOver(target, channel)).isNull();
        channel.close();
        assertThat(names()).containsExactly(LocalQueueDatabase.FILE_NAME);
        assertThat(Files.readString(target.resolve(LocalQueueDatabase.FILE_NAME))).isEqualTo("the copy");
    }

    @Test
    void aNewBackupsFilesAreLeftAloneWhenTheLockedFileWasUnlinked() throws Exception {
        Files.writeString(target.resolve(STAGED), "a dead copy", UTF_8);
        FileChannel stale = openLockFile();
        // the dead backup's files were cleared by a third backup, which made a lock file of its own and is staging
        Files.delete(target.resolve(LOCK));
        Files.delete(target.resolve(STAGED));
        try (FileChannel newOwner = openLockFile()) {
            newOwner.lock();
            Files.writeString(target.resolve(STAGED), "a live copy", UTF_8);

            assertThat(BackupDestination.takeOver(target, stale)).isNull();
            stale.close();
            assertThat(Files.readString(target.resolve(STAGED))).isEqualTo("a live copy");
            assertThat(names()).containsExactlyInAnyOrder(STAGED, LOCK);
        }
    }

    @Test
    void aWaiterThatLocksTheFileAClosedBackupUnlinkedDoesNotHoldTheDirectory() throws Exception {
        Files.writeString(target.resolve(STAGED), "half a copy", UTF_8);
        FileChannel channel = openLockFile();
        BackupDestination taken = BackupDestination.takeOver(target, channel);
        assertThat(taken).isNotNull();
        FileChannel waiting = openLockFile();

        taken.close();

        // the file this waiter opened is gone, so locking it now must not count as holding the directory
        assertThat(BackupDestination.takeOver(target, waiting)).isNull();
        waiting.close();
    }

    @Test
    void aLockFileOpenedAfterItsOwnerFinishedIsNotLeftBehind() throws Exception {
        Files.writeString(target.resolve(STAGED), "the copy", UTF_8);
        // the first look saw the staged copy; before the lock file was opened, the owner renamed its verified copy
        // into place and unlinked its lock file, so opening it created a new one
        Files.move(target.resolve(STAGED), target.resolve(LocalQueueDatabase.FILE_NAME));
        FileChannel channel = openLockFile();

        assertThat(BackupDestination.takeOver(target, channel)).isNull();
        channel.close();
        assertThat(names()).containsExactly(LocalQueueDatabase.FILE_NAME);
    }

    private FileChannel openLockFile() throws Exception {
        return FileChannel.open(target.resolve(LOCK), StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
    }

    private List<String> names() throws Exception {
        try (Stream<Path> files = Files.list(target)) {
            return files.map(file -> file.getFileName().toString()).toList();
        }
    }
}
