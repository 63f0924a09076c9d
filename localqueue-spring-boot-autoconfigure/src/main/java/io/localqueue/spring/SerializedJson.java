package io.localqueue.spring;

import io.localqueue.JsonSerializer;
import io.localqueue.Serializer;

/**
 * Payloads that a queue's JSON serializer already turned into bytes, stored as they are: a deferred enqueue
 * serializes when it is called and writes those bytes after the commit.
 */
final class SerializedJson implements Serializer<byte[]> {

    static final SerializedJson INSTANCE = new SerializedJson();

    private SerializedJson() {
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
        return JsonSerializer.IDENTITY;
    }
}
