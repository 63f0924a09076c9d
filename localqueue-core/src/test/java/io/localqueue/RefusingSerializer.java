package io.localqueue;

/**
 * JSON strings, except that one payload is refused, as a serializer may refuse a value it cannot write.
 */
final class RefusingSerializer implements Serializer<String> {

    private final JsonSerializer<String> json = JsonSerializer.of(String.class);
    private final String refused;

    RefusingSerializer(String refused) {
        this.refused = refused;
    }

    @Override
    public byte[] serialize(String value) {
        if (value.equals(refused)) {
            throw new IllegalStateException("cannot write " + value);
        }
        return json.serialize(value);
    }

    @Override
    public String deserialize(byte[] bytes) {
        return json.deserialize(bytes);
    }
}
