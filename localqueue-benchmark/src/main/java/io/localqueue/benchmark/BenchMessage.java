package io.localqueue.benchmark;

import java.util.Arrays;

/**
 * The payload of every engine scenario, stored as JSON of about {@link #TARGET_BYTES} bytes: a sequence number
 * that validation uses to check each job was acknowledged exactly once, and the {@link System#nanoTime()} of the
 * moment it was produced, for end-to-end latencies (comparable across processes on Linux, where it reads the
 * monotonic clock every process shares).
 *
 * @param seq the job's sequence number, unique within a scenario
 * @param sentNanos {@code System.nanoTime()} just before the job was put
 * @param pad filler that brings the JSON to its target size
 */
public record BenchMessage(long seq, long sentNanos, String pad) {

    /** The approximate size of one payload as stored. */
    public static final int TARGET_BYTES = 100;

    /** A JSON message holding only the fields, as stored by the engine's JSON serializer. */
    private static final int FIXED_BYTES = "{\"seq\": 1000000, \"sentNanos\": 1000000000000000, \"pad\": \"\"}"
            .length();

    private static final String PAD = "x".repeat(TARGET_BYTES - FIXED_BYTES);

    /**
     * Creates a message of about {@link #TARGET_BYTES} bytes.
     *
     * @param seq the sequence number
     * @param sentNanos the production time
     * @return the message
     */
    public static BenchMessage of(long seq, long sentNanos) {
        return new BenchMessage(seq, sentNanos, PAD);
    }

    /**
     * Returns raw bytes of the same size, for the raw JDBC baseline (which stores bytes and serializes nothing).
     *
     * @return a fresh {@link #TARGET_BYTES}-byte array
     */
    public static byte[] rawPayload() {
        byte[] bytes = new byte[TARGET_BYTES];
        Arrays.fill(bytes, (byte) 'x');
        return bytes;
    }
}
