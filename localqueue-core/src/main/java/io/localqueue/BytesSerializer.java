package io.localqueue;

/** Byte arrays stored as they are: {@link Serializer#bytes()}. */
final class BytesSerializer implements Serializer<byte[]> {

    /** The diagnostics identity. */
    static final String IDENTITY = "localqueue.BytesSerializer";

    static final BytesSerializer INSTANCE = new BytesSerializer();

    private BytesSerializer() {
    }

    @Override
    public byte[] serialize(byte[] value) {
        return value;
    }

    @Override
    public byte[] deserialize(byte[] bytes) {
        return bytes;
    }

    @Override
    public String identity() {
        return IDENTITY;
    }
}
