package io.localqueue;

/**
 * Turns payloads into the bytes stored in {@code messages.payload} and back; an exception from {@code serialize}
 * refuses the put before anything is written, and one from {@code deserialize} surfaces to the caller of
 * {@code get} (or as a {@code decodeError} in {@code listFailed}).
 *
 * @param <T> the payload type
 *
 * @since 0.1.0
 */
public interface Serializer<T> {

    /**
     * The largest payload a queue stores, in bytes (16 MiB): a larger one is refused at {@code put}. Keep big
     * content in a file or object store and put a reference to it.
     *
     * @since 0.1.0
     */
    int MAX_PAYLOAD_BYTES = 16 * 1024 * 1024;

    /**
     * Returns the serializer that stores byte arrays as they are and reads them back as stored (the array itself,
     * not a copy), for payloads the application encodes itself; its identity is {@value BytesSerializer#IDENTITY}.
     *
     * @return the shared instance
     * @since 0.1.0
     */
    static Serializer<byte[]> bytes() {
        return BytesSerializer.INSTANCE;
    }

    /**
     * Encodes a payload; throwing refuses it and nothing is written.
     *
     * @param value the payload, never null
     * @return the bytes to store
     */
    byte[] serialize(T value);

    /**
     * Decodes stored bytes, which may have been written by another process or by the Python library.
     *
     * @param bytes the stored bytes
     * @return the payload
     */
    T deserialize(byte[] bytes);

    /**
     * Names the format in diagnostics; by default the implementing class's name.
     *
     * @return a stable identity for this serializer
     */
    default String identity() {
        return getClass().getName();
    }
}
