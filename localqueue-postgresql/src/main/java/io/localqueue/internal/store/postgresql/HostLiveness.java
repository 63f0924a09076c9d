package io.localqueue.internal.store.postgresql;

import com.zaxxer.hikari.HikariDataSource;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This host's holder on a PostgreSQL database, and the test of other hosts' holders. The holder is a session advisory
 * lock on a random key, taken with {@code pg_try_advisory_lock} on a connection of its own and named by the key in
 * 16 hexadecimal digits; the server lets go of it when the session ends, which for a killed process is as soon as the
 * kernel closes its socket. Another host's holder has ended when no session of the database holds its key
 * ({@code pg_locks}).
 *
 * <p>A daemon thread takes the lock when the store first looks for ended holders, which a queue's first claim does
 * before its transaction, and waits a moment for it there, so that a claim never waits for a connection of the pool
 * while holding one (claims made while no lock is held name no holder); it checks the connection every second. When the connection
 * is lost the lock is lost with it: the thread drops the holder and takes a new key, never the old one, since other
 * hosts may already be taking back the old key's leases. Jobs claimed under the old key then run again elsewhere,
 * and their acknowledgements here fail their fence: at least once, as after any lost lease.
 */
final class HostLiveness implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(HostLiveness.class);

    /** How often the holder's connection is checked, and a lost lock taken again. */
    static final long CHECK_MILLIS = 1_000;

    /** How long a store's first look for ended holders waits for this host's lock. */
    static final long FIRST_WAIT_MILLIS = 2_000;

    private static final int MAX_FORMER = 64;

    private static final SecureRandom KEYS = new SecureRandom();

    private final DataSource source;
    private final String schema;
    private volatile @Nullable String holder;
    private volatile boolean closed;
    private @Nullable Thread thread;
    /** The lock's connection and key; only the thread touches them. */
    private @Nullable Connection connection;
    private long key;
    private boolean warned;
    /** Keys this host held before, never taken back by this host itself; other hosts take their leases back. */
    private final Set<String> former = ConcurrentHashMap.newKeySet();
    /** Opens once the thread's first try for the lock ended, taken or not. */
    private final CountDownLatch firstTry = new CountDownLatch(1);

    /**
     * Creates the liveness of this host on one layout; nothing is opened before the first claim.
     *
     * @param source the pool the lock's connection comes from
     * @param schema the layout's schema, for names and logs
     */
    HostLiveness(DataSource source, String schema) {
        this.source = source;
        this.schema = schema;
    }

    /**
     * Returns this host's holder name, starting to take the lock the first time.
     *
     * @return the name, or null while the lock is not held
     */
    @Nullable String holder() {
        if (thread == null) {
            start();
        }
        return holder;
    }

    /**
     * Returns this host's holder name, waiting a moment for the lock the first time, so that a store's first claims
     * already name it; called outside any transaction, so the wait never holds a connection of the pool.
     *
     * @param millis the longest wait
     * @return the name, or null while the lock is not held
     */
    @Nullable String awaitHolder(long millis) {
        holder();
        try {
            firstTry.await(millis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
        return holder;
    }

    /**
     * Returns, of the given holders named by leases, those known to have ended: every well-formed name whose key no
     * session of the database holds, except this host's own and those it held before a lost connection (whose jobs
     * it may still be running; other hosts take them back).
     *
     * @param connection a connection to read on
     * @param named holder names read from receipts
     * @return the ended ones
     * @throws SQLException when the read fails
     */
    List<String> ended(Connection connection, List<String> named) throws SQLException {
        String own = holder;
        List<String> others = named.stream()
                .filter(name -> !name.equals(own) && !former.contains(name) && isOurs(name)).toList();
        if (others.isEmpty()) {
            return others;
        }
        long[] keys = others.stream().mapToLong(name -> Long.parseLong(name, 16)).toArray();
        List<Long> gone = ClaimStatements.unheldKeys(connection, keys);
        return others.stream().filter(name -> gone.contains(Long.parseLong(name, 16))).toList();
    }

    @Override
    public void close() {
        Thread running;
        synchronized (this) {
            closed = true;
            holder = null;
            running = thread;
        }
        if (running != null) {
            LockSupport.unpark(running);
            try {
                running.join(TimeUnit.SECONDS.toMillis(5));
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private synchronized void start() {
        if (thread == null && !closed) {
            Thread started = new Thread(this::run, "localqueue-liveness-" + schema);
            started.setDaemon(true);
            thread = started;
            started.start();
        }
    }

    private void run() {
        while (!closed) {
            try {
                if (connection == null) {
                    take();
                } else if (!connection.isValid((int) TimeUnit.MILLISECONDS.toSeconds(CHECK_MILLIS) + 1)) {
                    lost("its connection is no longer valid", null);
                }
            } catch (SQLException | RuntimeException failure) {
                lost(failure.getMessage(), failure);
            }
            firstTry.countDown();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(CHECK_MILLIS));
        }
        firstTry.countDown();
        release();
    }

    /** Takes the lock on a fresh key, on a connection of its own. */
    private void take() throws SQLException {
        Connection open = source.getConnection();
        try {
            open.setAutoCommit(true);
            long fresh;
            do {
                fresh = KEYS.nextLong() & Long.MAX_VALUE;
            } while (!ClaimStatements.takeHolderLock(open, fresh));
            connection = open;
            key = fresh;
            holder = HexFormat.of().toHexDigits(fresh);
            if (warned) {
                warned = false;
                log.info("The jobs this host claims from schema {} come back soon after it dies again", schema);
            }
        } catch (SQLException | RuntimeException failure) {
            discard(open);
            throw failure;
        }
    }

    /** Drops the holder after the lock's connection failed; the next round takes a new key. */
    private void lost(@Nullable String why, @Nullable Throwable failure) {
        String old = holder;
        if (old != null && former.size() < MAX_FORMER) {
            former.add(old);
        }
        holder = null;
        Connection open = connection;
        connection = null;
        if (open != null) {
            discard(open);
        }
        if (!warned && !closed) {
            warned = true;
            log.warn("This host holds no liveness lock on schema {} ({}): jobs it claims meanwhile come back only when "
                    + "their leases end if it dies, and jobs it claimed before may be claimed again by other hosts",
                    schema, why);
            log.debug("The liveness lock of schema {} failed", schema, failure);
        }
    }

    /** Lets go of the lock and hands the connection back, or drops it when the unlock fails. */
    private void release() {
        Connection open = connection;
        connection = null;
        holder = null;
        if (open == null) {
            return;
        }
        try {
            ClaimStatements.releaseHolderLock(open, key);
            open.close();
        } catch (SQLException | RuntimeException failure) {
            discard(open);
        }
    }

    /**
     * Drops a connection whose session may still hold the lock, so that no other borrower of the pool gets it: a
     * HikariCP pool evicts it, any other pool gets it closed.
     */
    private void discard(Connection open) {
        try {
            if (source.isWrapperFor(HikariDataSource.class)) {
                source.unwrap(HikariDataSource.class).evictConnection(open);
                return;
            }
        } catch (SQLException | RuntimeException notAPool) {
            // closed below
        }
        try {
            open.close();
        } catch (SQLException ignored) {
            // the connection is gone either way
        }
    }

    /** Whether a holder name is one this store writes: a key of at most 63 bits. */
    private static boolean isOurs(String name) {
        return name.length() == 16 && Character.digit(name.charAt(0), 16) < 8;
    }
}
