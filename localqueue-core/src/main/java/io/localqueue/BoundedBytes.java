package io.localqueue;

import java.io.ByteArrayOutputStream;

/**
 * The buffer a payload is written into: it refuses to grow beyond {@link Serializer#MAX_PAYLOAD_BYTES}, so writing a
 * huge value fails at that size instead of exhausting the heap.
 */
final class BoundedBytes extends ByteArrayOutputStream {

    BoundedBytes() {
        super(256);
    }

    @Override
    public synchronized void write(int b) {
        ensureRoom(1);
        super.write(b);
    }

    @Override
    public synchronized void write(byte[] bytes, int offset, int length) {
        ensureRoom(length);
        super.write(bytes, offset, length);
    }

    /** Tells whether a failure was this buffer refusing to grow. */
    static boolean overflowed(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof Overflow) {
                return true;
            }
        }
        return false;
    }

    private void ensureRoom(int length) {
        if (length > Serializer.MAX_PAYLOAD_BYTES - count) {
            throw new Overflow();
        }
    }

    /** Unchecked, so it passes through the stream's signature; Jackson reports it as the cause of its failure. */
    private static final class Overflow extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Overflow() {
            super("payload exceeds " + Serializer.MAX_PAYLOAD_BYTES + " bytes", null, false, false);
        }
    }
}
