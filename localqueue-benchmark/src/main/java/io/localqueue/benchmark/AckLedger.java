package io.localqueue.benchmark;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntPredicate;

/**
 * Counts acknowledgements per sequence number, so a scenario can prove that every job it produced was acknowledged
 * exactly once; also keeps each job's production and acknowledgement times and the latest acknowledgement.
 * Thread-safe.
 */
public final class AckLedger {

    private static final long POLL_NANOS = 100_000;

    private final AtomicIntegerArray acks;
    private final long[] sentNanos;
    private final long[] ackNanos;
    private final AtomicInteger total = new AtomicInteger();
    private final AtomicInteger outOfRange = new AtomicInteger();
    private final AtomicLong lastAckNanos = new AtomicLong(Long.MIN_VALUE);

    /**
     * Creates a ledger for sequence numbers {@code 0 .. size-1}.
     *
     * @param size how many jobs may be produced
     */
    public AckLedger(int size) {
        this.acks = new AtomicIntegerArray(size);
        this.sentNanos = new long[size];
        this.ackNanos = new long[size];
    }

    /**
     * Records one acknowledgement.
     *
     * @param seq the job's sequence number
     * @param sent when it was produced
     * @param acked when its acknowledgement committed
     */
    public void record(long seq, long sent, long acked) {
        if (seq < 0 || seq >= acks.length()) {
            outOfRange.incrementAndGet();
        } else {
            sentNanos[(int) seq] = sent;
            ackNanos[(int) seq] = acked;
            acks.incrementAndGet((int) seq);
        }
        lastAckNanos.accumulateAndGet(acked, Math::max);
        total.incrementAndGet();
    }

    /**
     * Returns how many acknowledgements were recorded, duplicates included.
     *
     * @return the count
     */
    public int acknowledged() {
        return total.get();
    }

    /**
     * Waits until at least {@code count} acknowledgements were recorded.
     *
     * @param count the awaited count
     * @param timeoutSeconds how long to wait at most
     * @return true when they arrived
     * @throws InterruptedException when interrupted
     */
    public boolean awaitAcknowledged(int count, long timeoutSeconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        while (total.get() < count) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            LockSupport.parkNanos(POLL_NANOS);
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
        }
        return true;
    }

    /**
     * Returns the time of the latest acknowledgement.
     *
     * @return a {@code System.nanoTime()} value
     */
    public long lastAckNanos() {
        return lastAckNanos.get();
    }

    /**
     * Returns when a job's acknowledgement committed.
     *
     * @param seq the sequence number
     * @return a {@code System.nanoTime()} value, or 0 when it was not acknowledged
     */
    public long ackNanos(int seq) {
        return ackNanos[seq];
    }

    /**
     * Returns the end-to-end latencies of sequence numbers {@code from .. to-1}, production to acknowledgement.
     *
     * @param from the first sequence number
     * @param to one past the last
     * @return the latencies in nanoseconds
     */
    public long[] latencies(int from, int to) {
        long[] latencies = new long[to - from];
        for (int i = from; i < to; i++) {
            latencies[i - from] = ackNanos[i] - sentNanos[i];
        }
        return latencies;
    }

    /**
     * Checks that sequence numbers {@code 0 .. produced-1} were acknowledged exactly once and nothing else was.
     *
     * @param produced how many jobs were produced
     * @return the validation
     */
    public Validation exactlyOnce(int produced) {
        return exactlyOnce(seq -> seq < produced);
    }

    /**
     * Checks that every produced sequence number was acknowledged exactly once and nothing else was.
     *
     * @param produced tells whether a sequence number was produced
     * @return the validation
     */
    public Validation exactlyOnce(IntPredicate produced) {
        int expected = 0;
        int missing = 0;
        int duplicated = 0;
        int unexpected = outOfRange.get();
        for (int i = 0; i < acks.length(); i++) {
            int count = acks.get(i);
            if (produced.test(i)) {
                expected++;
                if (count == 0) {
                    missing++;
                }
            } else if (count > 0) {
                unexpected++;
            }
            if (count > 1) {
                duplicated++;
            }
        }
        String detail = expected + " ids produced: " + missing + " never acknowledged, " + duplicated
                + " acknowledged more than once, " + unexpected + " acknowledged but never produced";
        return Validation.check(missing == 0 && duplicated == 0 && unexpected == 0, detail);
    }
}
