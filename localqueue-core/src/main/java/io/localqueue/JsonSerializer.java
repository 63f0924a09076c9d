package io.localqueue;

import tools.jackson.core.json.JsonWriteFeature;
import tools.jackson.core.util.DefaultPrettyPrinter;
import tools.jackson.core.util.Separators;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The default format: UTF-8 JSON through Jackson, spelled as the Python library's {@code json.dumps} spells it, so
 * a database can be shared with it; a payload Jackson cannot write is refused before anything is stored.
 *
 * @param <T> the payload type
 *
 * @since 0.1.0
 */
public final class JsonSerializer<T> implements Serializer<T> {

    /** The identity reported in diagnostics, shared with the Python library's JSON serializer. */
    public static final String IDENTITY = "localqueue.JsonSerializer";

    private static final JsonMapper DEFAULT_MAPPER = pythonCompatibleMapper();

    private final JsonMapper mapper;
    private final JavaType type;

    private JsonSerializer(JsonMapper mapper, JavaType type) {
        this.mapper = mapper;
        this.type = type;
    }

    /**
     * Maps JSON to and from a type (a record, a bean, a {@code String}…) with a default Jackson mapper; a null type
     * is an {@link IllegalArgumentException} naming {@code type}.
     *
     * @param type the payload class
     * @param <T> the payload type
     * @return a serializer for that type
     */
    public static <T> JsonSerializer<T> of(Class<T> type) {
        return of(type, DEFAULT_MAPPER);
    }

    /**
     * Maps JSON to and from a type with the given mapper, for example the application's own configured one.
     *
     * @param type the payload class
     * @param mapper the mapper to use
     * @param <T> the payload type
     * @return a serializer for that type
     */
    public static <T> JsonSerializer<T> of(Class<T> type, JsonMapper mapper) {
        if (type == null) {
            throw new IllegalArgumentException("type must not be null");
        }
        if (mapper == null) {
            throw new IllegalArgumentException("mapper must not be null");
        }
        return new JsonSerializer<>(mapper, mapper.constructType(type));
    }

    /**
     * Maps JSON to plain Java values: {@code Map}, {@code List}, {@code String}, {@code Number}, {@code Boolean} and
     * null; any payload Jackson can write may be put.
     *
     * @return a serializer for untyped JSON
     */
    public static JsonSerializer<Object> generic() {
        return of(Object.class);
    }

    /**
     * Builds the default mapper, which writes the bytes Python's {@code json.dumps(value).encode("utf-8")} writes
     * for the same value: {@code ", "} and {@code ": "} separators, every non-ASCII character written as a
     * lower-case backslash-u escape (UTF-16 surrogate pairs beyond the BMP), slashes left alone. Only the spelling of
     * very large or very small floating-point numbers differs ({@code 1.0E20} here, {@code 1e+20} in Python); both
     * read either.
     */
    private static JsonMapper pythonCompatibleMapper() {
        Separators separators = Separators.createDefaultInstance()
                .withObjectNameValueSpacing(Separators.Spacing.AFTER)
                .withObjectEntrySpacing(Separators.Spacing.AFTER)
                .withArrayElementSpacing(Separators.Spacing.AFTER)
                .withObjectEmptySeparator("")
                .withArrayEmptySeparator("");
        DefaultPrettyPrinter printer = new DefaultPrettyPrinter(separators)
                .withObjectIndenter(new DefaultPrettyPrinter.NopIndenter())
                .withArrayIndenter(new DefaultPrettyPrinter.NopIndenter());
        return JsonMapper.builder()
                .enable(JsonWriteFeature.ESCAPE_NON_ASCII)
                .disable(JsonWriteFeature.ESCAPE_FORWARD_SLASHES, JsonWriteFeature.WRITE_HEX_UPPER_CASE)
                .defaultPrettyPrinter(printer)
                .enable(SerializationFeature.INDENT_OUTPUT)
                .build();
    }

    @Override
    public byte[] serialize(T value) {
        return mapper.writeValueAsBytes(value);
    }

    @Override
    public T deserialize(byte[] bytes) {
        return mapper.readValue(bytes, type);
    }

    @Override
    public String identity() {
        return IDENTITY;
    }

    @Override
    public String toString() {
        return "JsonSerializer[" + type.toCanonical() + "]";
    }
}
