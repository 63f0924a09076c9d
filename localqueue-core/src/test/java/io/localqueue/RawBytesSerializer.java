package io.localqueue;

/**
 * Stores payload bytes exactly as given, so a test can write bytes another serializer cannot read.
 */
final class RawBytesSerializer implements Serializer<byte[]> {

    @Override
    public byte[] serialize(byte[] value) {
        return value.clone();
    }

    @Override
    public byte[] deserialize(byte[] bytes) {
        return bytes.clone();
    }
}
