package io.localqueue.internal.store.sqlite;

import io.localqueue.internal.store.ClaimTurn;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One queue's claim turn in this process. A daemon thread tries for the operating-system lock, every 200 µs to 2 ms,
 * while a claimer of this process wants the turn, and offers the turn to this process's claimers one at a time. It
 * lets go when no claimer here takes the offer within a moment (all its threads are busy), and after a claim that
 * ends its quantum while another process waits; then it stays out until that process has taken the turn (at most a
 * few milliseconds), so that it does not take it straight back.
 */
final class ProcessClaimTurn implements ClaimTurn {

    private static final Logger log = LoggerFactory.getLogger(ProcessClaimTurn.class);

    /**
     * The longest a process that let the turn go to a waiting one stays out before trying again; it comes back as
     * soon as no other process waits any more, that is when the waiting one has taken the turn.
     */
    static final long YIELD_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    /**
     * How long a process keeps claiming in one turn while others wait: long enough that handing the turn over is
     * rare next to the claims made in it, short enough that the processes take turns many times a second.
     */
    static final long QUANTUM_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    /**
     * How long the turn stays on offer after a claim when no claimer of this process asks at once: a worker's next
     * claim comes from another of its threads a moment after the last one returned.
     */
    static final long GRACE_NANOS = TimeUnit.MICROSECONDS.toNanos(500);
    /** How soon a process waiting for the turn tries again at first; the pause doubles up to {@link #MAX_POLL_NANOS}. */
    static final long POLL_NANOS = TimeUnit.MICROSECONDS.toNanos(200);
    /** The longest pause between two tries of a waiting process, within {@link #YIELD_NANOS}. */
    static final long MAX_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(2);
    /** The longest a waiting claimer sleeps before it looks at its cancellation again. */
    private static final long SLICE_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final FileChannel channel;
    private final long position;
    private final String name;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    /** Claimers of this process waiting in {@link #enter}. */
    private int wanting;
    /** The process holds the turn and no claimer of it uses it: the next one may. */
    private boolean offered;
    /** A claimer of this process uses the turn. */
    private boolean inUse;
    /** The turn cannot be had (closed, or its file unusable): every claimer goes ahead. */
    private boolean open = true;
    /** The thread holds the turn for this process. */
    private boolean serving;
    /** Until when a claim that ends may hand the turn to the next claimer here without a look for waiters. */
    private long freeUntil;
    private long offeredAt;
    private long yieldedAt;
    private boolean yielded;

    private ProcessClaimTurn(FileChannel channel, long position, String name) {
        this.channel = channel;
        this.position = position;
        this.name = name;
    }

    static ProcessClaimTurn start(FileChannel channel, long position, String name) {
        ProcessClaimTurn turn = new ProcessClaimTurn(channel, position, name);
        Thread thread = new Thread(turn::run, "localqueue-claim-turn-" + name);
        thread.setDaemon(true);
        thread.start();
        return turn;
    }

    @Override
    public boolean enter(long waitNanos, BooleanSupplier cancelled) throws InterruptedException {
        long deadline = System.nanoTime() + waitNanos;
        lock.lock();
        try {
            wanting++;
            changed.signalAll();
            try {
                while (open && !offered) {
                    long remaining = deadline - System.nanoTime();
                    if (remaining <= 0 || cancelled.getAsBoolean()) {
                        return false;
                    }
                    changed.awaitNanos(Math.min(remaining, SLICE_NANOS));
                }
                if (open) {
                    offered = false;
                    inUse = true;
                }
                return true;
            } finally {
                wanting--;
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void exit() {
        lock.lock();
        try {
            if (inUse) {
                inUse = false;
                if (serving && System.nanoTime() - freeUntil < 0) {
                    // Within the quantum the next claimer here may go at once, without the thread looking for
                    // waiting processes.
                    offered = true;
                    offeredAt = System.nanoTime();
                }
                changed.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Ends the turn for good: waiting and later claimers go ahead without it. */
    void close() {
        lock.lock();
        try {
            open = false;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void run() {
        try {
            while (awaitWanted()) {
                stayOutAfterYielding();
                FileLock turn = acquire();
                if (turn == null) {
                    continue;
                }
                try {
                    serve();
                } finally {
                    turn.release();
                }
            }
        } catch (ClosedChannelException closed) {
            // the store closed its side file
        } catch (IOException | OverlappingFileLockException unusable) {
            log.warn("Consumers of queue {} claim without taking turns: {}", name, unusable.toString());
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        } finally {
            close();
        }
    }

    /** Sleeps until a claimer of this process wants the turn; false once the turn closed. */
    private boolean awaitWanted() throws InterruptedException {
        lock.lock();
        try {
            while (open && wanting == 0) {
                changed.await();
            }
            return open;
        } finally {
            lock.unlock();
        }
    }

    private void stayOutAfterYielding() throws IOException {
        if (yielded) {
            yielded = false;
            while (System.nanoTime() - yieldedAt < YIELD_NANOS && anotherProcessWaits()) {
                LockSupport.parkNanos(POLL_NANOS);
            }
        }
    }

    /**
     * Takes the turn, holding the waiters' byte shared meanwhile so the holder sees that this process waits; returns
     * null once no claimer here wants it any more. It tries again after a pause that grows from {@link #POLL_NANOS}
     * to {@link #MAX_POLL_NANOS}, rather than blocking:
     * the kernel counts locks per process, so a process holding one queue's turn (or the writers' line) while blocked
     * on another's could be refused as a deadlock with a process doing the same the other way round.
     */
    private @Nullable FileLock acquire() throws IOException {
        FileLock waiting = null;
        long pause = POLL_NANOS;
        try {
            while (stillWanted()) {
                if (waiting == null) {
                    waiting = channel.tryLock(position + 1, 1, true); // null while the holder looks for waiters
                }
                if (waiting != null) {
                    FileLock turn = channel.tryLock(position, 1, false);
                    if (turn != null) {
                        return turn;
                    }
                }
                LockSupport.parkNanos(pause);
                pause = Math.min(pause * 2, MAX_POLL_NANOS);
            }
            return null;
        } finally {
            if (waiting != null) {
                waiting.release();
            }
        }
    }

    private boolean stillWanted() {
        lock.lock();
        try {
            return open && wanting > 0;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Offers the held turn to this process's claimers, one claim at a time, and returns when it should go: nobody
     * here took the offer within a moment, or a claim ended its quantum while another process waits.
     */
    private void serve() throws IOException, InterruptedException {
        lock.lock();
        try {
            serving = true;
            freeUntil = System.nanoTime() + QUANTUM_NANOS;
            offer();
            while (open) {
                if (offered && wanting == 0) {
                    long left = offeredAt + GRACE_NANOS - System.nanoTime();
                    if (left <= 0) {
                        break; // all of this process's claimers are busy, or gave up waiting
                    }
                    changed.awaitNanos(left);
                } else if (offered || inUse) {
                    changed.await();
                } else if (anotherProcessWaits()) {
                    yielded = true;
                    yieldedAt = System.nanoTime();
                    break;
                } else {
                    freeUntil = System.nanoTime() + QUANTUM_NANOS;
                    offer();
                }
            }
        } finally {
            offered = false;
            serving = false;
            lock.unlock();
        }
    }

    private void offer() {
        offered = true;
        offeredAt = System.nanoTime();
        changed.signalAll();
    }

    /** Whether another process holds the waiters' byte, that is waits for this turn. */
    private boolean anotherProcessWaits() throws IOException {
        @Nullable FileLock probe = channel.tryLock(position + 1, 1, false);
        if (probe == null) {
            return true;
        }
        probe.release();
        return false;
    }
}
