package io.localqueue.internal.store.sqlite;

import io.localqueue.internal.store.ClaimTurn;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The claim turns of the queues of one file, held as operating-system locks on byte ranges of a small side file next
 * to it: two bytes per queue, one the turn itself, one that a process waiting for the turn holds shared so the holder
 * can tell whether anyone waits. Queues whose names hash alike share their bytes, which only orders their claimers
 * together. When the side file cannot be used, every turn is granted at once and claims race as they would without.
 */
public final class ClaimTurns implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ClaimTurns.class);

    /** The side file, next to the database file; it holds no data. */
    public static final String SUFFIX = "-claimers";

    private final Path file;
    private final Map<String, ProcessClaimTurn> turns = new ConcurrentHashMap<>();
    private @Nullable FileChannel channel;
    private boolean closed;
    private boolean warned;

    /**
     * Creates the turns of one file; nothing is opened before a queue first asks for its turn.
     *
     * @param databaseFile the database file
     */
    ClaimTurns(Path databaseFile) {
        this.file = databaseFile.resolveSibling(databaseFile.getFileName() + SUFFIX);
    }

    /**
     * Returns the turn of one queue.
     *
     * @param queue the queue
     * @return the same turn for every call with this queue
     */
    ClaimTurn turn(String queue) {
        ClaimTurn existing = turns.get(queue);
        if (existing != null) {
            return existing;
        }
        synchronized (this) {
            if (closed) {
                return ClaimTurn.ALWAYS;
            }
            FileChannel open = channel();
            if (open == null) {
                return ClaimTurn.ALWAYS;
            }
            return turns.computeIfAbsent(queue, name -> ProcessClaimTurn.start(open, position(name),
                    file.getParent().getFileName() + "/" + name));
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        turns.values().forEach(ProcessClaimTurn::close);
        turns.clear();
        FileChannel open = channel;
        channel = null;
        LockFiles.close(open, file);
    }

    private @Nullable FileChannel channel() {
        if (channel == null && !warned) {
            try {
                channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                        StandardOpenOption.WRITE);
            } catch (IOException | RuntimeException unusable) {
                warned = true;
                log.warn("Consumers of {} claim without taking turns: {} cannot be used: {}", file.getParent(), file,
                        unusable.toString());
            }
        }
        return channel;
    }

    /** The queue's pair of bytes: the turn at an even position, the waiters' byte after it. */
    public static long position(String queue) {
        // String.hashCode is fixed by the language specification, so every JVM picks the same bytes.
        return (queue.hashCode() & 0x3FFF_FFFFL) * 2;
    }
}
