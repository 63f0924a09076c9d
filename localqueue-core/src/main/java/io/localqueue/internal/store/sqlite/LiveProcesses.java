package io.localqueue.internal.store.sqlite;

import io.localqueue.internal.store.Receipts;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which processes that claimed from one file still run, told by operating-system locks on a side file next to it.
 * A process that claims takes a slot: an exclusive lock on one byte of the side file, and a random nonce it writes
 * into the slot's own eight bytes. Its holder name, the slot and the nonce, goes into every receipt it writes. A
 * holder has ended when nobody holds its slot's lock, or when the slot holds another nonce: a process that took over a
 * dead one's slot never makes the dead one's leases look alive. A holder that cannot be told about counts as running.
 *
 * <p>The slot is the process's, not a store's: every store of the JVM on the file shares it, and when the last one
 * closes with leases claimed under it still unsettled, the slot is kept until they have all run out (the kernel lets
 * go of it at once when the process ends), so that a queue closed and opened again in a running process keeps its
 * leases, as it always did, while a killed process's jobs come back within a second.
 */
final class LiveProcesses {

    private static final Logger log = LoggerFactory.getLogger(LiveProcesses.class);

    /** The side file, next to the database file; it holds the slots' nonces and nothing else. */
    static final String SUFFIX = "-live";

    /** How many processes can hold a slot at once; a process finding none claims as if it held none. */
    static final int SLOTS = 4096;

    /**
     * Where the slots' locks begin, past their nonces: a lock never covers bytes that another process reads, so the
     * file works where locks are mandatory too.
     */
    static final long LOCK_BASE = 1L << 20;

    private static final int NONCE_BYTES = Long.BYTES;
    private static final int SLOT_DIGITS = 4;
    private static final int NONCE_DIGITS = Receipts.HOLDER_LENGTH - SLOT_DIGITS;
    private static final long NONCE_MASK = (1L << (4 * NONCE_DIGITS)) - 1;
    private static final SecureRandom NONCES = new SecureRandom();

    /** The slots of this JVM, by side file, while a store uses them or leases under them may still run. */
    private static final Map<Path, LiveProcesses> SLOTS_BY_FILE = new HashMap<>();
    private static @Nullable ScheduledExecutorService releases;

    private final Path file;
    /** Stores of this JVM on the file; guarded by the class. */
    private int users;
    private @Nullable ScheduledFuture<?> release;
    /** Until when, by {@link System#nanoTime()}, a lease taken or renewed under this slot may run. */
    private final AtomicLong heldUntilNanos = new AtomicLong(System.nanoTime());
    /** Leases claimed under this slot and not yet seen settled here: more than the truth, never fewer. */
    private final AtomicLong outstanding = new AtomicLong();
    private @Nullable FileChannel channel;
    private @Nullable FileLock slot;
    private volatile @Nullable String holder;
    private boolean unusable;
    private boolean closed;

    private LiveProcesses(Path file) {
        this.file = file;
    }

    /**
     * Returns this JVM's liveness on a file, for one more store on it; nothing is opened before the first claim.
     *
     * @param databaseFile the database file
     * @return the shared liveness, to be {@link #close() closed} by the store
     */
    static LiveProcesses open(Path databaseFile) {
        Path side = databaseFile.resolveSibling(databaseFile.getFileName() + SUFFIX);
        synchronized (LiveProcesses.class) {
            LiveProcesses live = SLOTS_BY_FILE.computeIfAbsent(side, LiveProcesses::new);
            live.users++;
            if (live.release != null) {
                live.release.cancel(false);
                live.release = null;
            }
            return live;
        }
    }

    /**
     * Records leases claimed under this process's holder.
     *
     * @param count how many
     * @param millis their length
     */
    void claimed(int count, long millis) {
        outstanding.addAndGet(count);
        heldFor(millis);
    }

    /**
     * Records a settlement that applied, of a delivery whose receipt may name this process's holder.
     *
     * @param receipt the delivery's receipt
     */
    void settled(String receipt) {
        String own = holder;
        if (own != null && own.equals(Receipts.holderOf(receipt))) {
            outstanding.decrementAndGet();
        }
    }

    /**
     * Records that a lease under this process's holder may run for {@code millis} from now: a renewal's.
     *
     * @param millis the lease's length
     */
    void heldFor(long millis) {
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.max(0, millis));
        heldUntilNanos.accumulateAndGet(until, (held, next) -> next - held > 0 ? next : held);
    }

    /**
     * Returns this process's holder name, taking a free slot the first time.
     *
     * @return the name, or null when the side file cannot be used or every slot is taken, so that receipts name no
     *         holder and leases end only with their time
     */
    synchronized @Nullable String holder() {
        if (holder != null || unusable || closed) {
            return holder;
        }
        try {
            FileChannel open = channel();
            for (int index = 0; index < SLOTS; index++) {
                FileLock taken;
                try {
                    taken = open.tryLock(LOCK_BASE + index, 1, false);
                } catch (OverlappingFileLockException ours) {
                    continue; // held in this JVM already
                }
                if (taken != null) {
                    long nonce = NONCES.nextLong() & NONCE_MASK;
                    write(open, index, nonce);
                    slot = taken;
                    holder = name(index, nonce);
                    return holder;
                }
            }
            unusable("all " + SLOTS + " slots are taken");
        } catch (IOException | RuntimeException failure) {
            unusable(failure.toString());
        }
        return null;
    }

    /**
     * Tells whether a holder has ended: its slot is free, or holds another process's nonce.
     *
     * @param name a holder name from a receipt
     * @return false while the holder may still run, and whenever that cannot be told
     */
    synchronized boolean ended(String name) {
        if (closed || unusable || !Receipts.isHolder(name)) {
            return false;
        }
        int index = Integer.parseInt(name, 0, SLOT_DIGITS, 16);
        long nonce = Long.parseLong(name, SLOT_DIGITS, name.length(), 16);
        try {
            FileChannel open = channel();
            FileLock probe;
            try {
                probe = open.tryLock(LOCK_BASE + index, 1, true);
            } catch (OverlappingFileLockException ours) {
                probe = null; // this JVM holds the slot: the nonce tells whether it is that holder
            }
            if (probe != null) {
                probe.release();
                return true;
            }
            return read(open, index) != nonce;
        } catch (IOException | RuntimeException failure) {
            log.debug("Cannot tell whether holder {} of {} still runs", name, file, failure);
            return false;
        }
    }

    /**
     * Ends one store's use: after the last, the slot goes at once when every lease claimed under it was settled here,
     * or else once they have all run out.
     */
    void close() {
        synchronized (LiveProcesses.class) {
            if (--users > 0) {
                return;
            }
            long left = heldUntilNanos.get() - System.nanoTime();
            if (left <= 0 || outstanding.get() <= 0 || !holds()) {
                releaseUnused();
            } else {
                release = releases().schedule(this::releaseUnused, left, TimeUnit.NANOSECONDS);
            }
        }
    }

    private synchronized boolean holds() {
        return holder != null;
    }

    /** Lets go of the slot unless a store opened the file again meanwhile. */
    private void releaseUnused() {
        synchronized (LiveProcesses.class) {
            if (users > 0 || SLOTS_BY_FILE.get(file) != this) {
                return;
            }
            SLOTS_BY_FILE.remove(file);
            release = null;
        }
        synchronized (this) {
            closed = true;
            holder = null;
            slot = null;
            FileChannel open = channel;
            channel = null;
            LockFiles.close(open, file);
        }
    }

    private static ScheduledExecutorService releases() {
        if (releases == null) {
            releases = Executors.newSingleThreadScheduledExecutor(task -> {
                Thread thread = new Thread(task, "localqueue-live-slots");
                thread.setDaemon(true);
                return thread;
            });
        }
        return releases;
    }

    private FileChannel channel() throws IOException {
        if (channel == null) {
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
        }
        return channel;
    }

    private void unusable(String why) {
        unusable = true;
        log.warn("Jobs claimed from {} come back only when their leases end if this process dies: {} cannot be "
                + "used: {}", file.getParent(), file, why);
    }

    private static String name(int index, long nonce) {
        HexFormat hex = HexFormat.of();
        return hex.toHexDigits(index).substring(8 - SLOT_DIGITS) + hex.toHexDigits(nonce).substring(16 - NONCE_DIGITS);
    }

    private static void write(FileChannel channel, int index, long nonce) throws IOException {
        ByteBuffer bytes = ByteBuffer.allocate(NONCE_BYTES).putLong(0, nonce);
        long position = (long) index * NONCE_BYTES;
        while (bytes.hasRemaining()) {
            channel.write(bytes, position + bytes.position());
        }
    }

    /** The nonce in a slot, or -1 when none was ever written there. */
    private static long read(FileChannel channel, int index) throws IOException {
        ByteBuffer bytes = ByteBuffer.allocate(NONCE_BYTES);
        long position = (long) index * NONCE_BYTES;
        while (bytes.hasRemaining()) {
            if (channel.read(bytes, position + bytes.position()) < 0) {
                return -1;
            }
        }
        return bytes.getLong(0);
    }
}
