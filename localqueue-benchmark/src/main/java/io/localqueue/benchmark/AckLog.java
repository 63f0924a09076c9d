package io.localqueue.benchmark;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The acknowledgements one consumer process made, as (sequence number, produced at, acknowledged at) triples of
 * {@code System.nanoTime()} values, kept in memory and handed to the parent through a file. Thread-safe.
 */
final class AckLog {

    private long[] entries = new long[3 * 1024];
    private int size;

    /**
     * Appends one acknowledgement.
     *
     * @param seq the job's sequence number
     * @param sentNanos when it was produced
     * @param ackNanos when its acknowledgement committed
     */
    synchronized void add(long seq, long sentNanos, long ackNanos) {
        if (size + 3 > entries.length) {
            entries = Arrays.copyOf(entries, entries.length * 2);
        }
        entries[size++] = seq;
        entries[size++] = sentNanos;
        entries[size++] = ackNanos;
    }

    /**
     * Returns how many acknowledgements were logged.
     *
     * @return the count
     */
    synchronized int count() {
        return size / 3;
    }

    /**
     * Writes the log to a file.
     *
     * @param file the file, replaced if present
     * @throws IOException when it cannot be written
     */
    synchronized void writeTo(Path file) throws IOException {
        try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file)))) {
            for (int i = 0; i < size; i++) {
                out.writeLong(entries[i]);
            }
        }
    }

    /**
     * Reads a log file written by {@link #writeTo(Path)} into a ledger.
     *
     * @param file the file
     * @param ledger where each acknowledgement is recorded
     * @return how many acknowledgements the file held
     * @throws IOException when it cannot be read
     */
    static int readInto(Path file, AckLedger ledger) throws IOException {
        int count = 0;
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file)))) {
            while (true) {
                long seq;
                try {
                    seq = in.readLong();
                } catch (EOFException end) {
                    return count;
                }
                ledger.record(seq, in.readLong(), in.readLong());
                count++;
            }
        }
    }
}
