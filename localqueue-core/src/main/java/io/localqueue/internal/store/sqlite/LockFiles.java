package io.localqueue.internal.store.sqlite;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** What the side files holding operating-system locks share: closing one, which releases its locks, never fails. */
final class LockFiles {

    private static final Logger log = LoggerFactory.getLogger(LockFiles.class);

    private LockFiles() {
    }

    /**
     * Closes a lock file's channel, releasing every lock taken through it; a failure is logged at DEBUG only, since the
     * locks go with the channel either way.
     *
     * @param channel the channel, or null for none
     * @param file the file, for the log
     */
    public static void close(@Nullable FileChannel channel, Path file) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException failure) {
                log.debug("Closing {} failed", file, failure);
            }
        }
    }
}
