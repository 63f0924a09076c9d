package io.localqueue;

import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.json.JsonWriteFeature;
import tools.jackson.core.util.DefaultPrettyPrinter;
import tools.jackson.core.util.Separators;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The default format: UTF-8 JSON through Jackson, spelled as the Python library's {@code json.dumps} spells it, so
 * a database can be shared with it. What {@code serialize} returns, {@code deserialize} reads back: a payload
 * Jackson cannot write, that its own parser would refuse to read (such as a property name with a lone UTF-16
 * surrogate, or a value beyond the mapper's read limits), or that exceeds {@link Serializer#MAX_PAYLOAD_BYTES} is
 * refused before anything is stored, and writing stops at that size, so a huge value costs no more heap than the
 * limit. The default mapper reads strings, names and numbers up to that size and nesting to depth 1,000 (it writes
 * to depth 500), so any payload it accepts, or the Python library writes within the limit, reads back.
 *
 * @param <T> the payload type
 *
 * @since 0.1.0
 */
public final class JsonSerializer<T> implements Serializer<T> {

    /** The identity reported in diagnostics, shared with the Python library's JSON serializer. */
    public static final String IDENTITY = "localqueue.JsonSerializer";

    /** How deep a payload the default mapper reads; Python's {@code json.dumps} writes about this deep. */
    private static final int READ_DEPTH = 1_000;

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
            throw new InvalidArgumentException("type", "type must not be null");
        }
        if (mapper == null) {
            throw new InvalidArgumentException("mapper", "mapper must not be null");
        }
        return new JsonSerializer<>(mapper, mapper.constructType(type));
    }

    /**
     * Maps JSON to and from a generic type, such as {@code Map<String, List<Email>>}, with the default mapper; the
     * caller vouches that {@code T} is that type.
     *
     * @param type the payload type, a class or a parameterized type without type variables
     * @param <T> the payload type
     * @return a serializer for that type
     * @throws IllegalArgumentException when null, or a type variable
     * @since 0.1.0
     */
    public static <T> JsonSerializer<T> ofType(java.lang.reflect.Type type) {
        return ofType(type, DEFAULT_MAPPER);
    }

    /**
     * Maps JSON to and from a generic type, such as {@code Map<String, List<Email>>}, with the given mapper; the
     * caller vouches that {@code T} is that type, as no check is possible.
     *
     * @param type the payload type, a class or a parameterized type without type variables
     * @param mapper the mapper to use
     * @param <T> the payload type
     * @return a serializer for that type
     * @throws IllegalArgumentException when either is null, or the type holds a type variable Jackson cannot bind
     * @since 0.1.0
     */
    public static <T> JsonSerializer<T> ofType(java.lang.reflect.Type type, JsonMapper mapper) {
        if (type == null) {
            throw new InvalidArgumentException("type", "type must not be null");
        }
        if (mapper == null) {
            throw new InvalidArgumentException("mapper", "mapper must not be null");
        }
        if (type instanceof java.lang.reflect.TypeVariable<?> variable) {
            throw new IllegalArgumentException("type " + variable + " is a type variable; give the actual type");
        }
        return new JsonSerializer<>(mapper, mapper.constructType(type));
    }

    /**
     * Returns {@code mapper} rebuilt to write what Python's {@code json.dumps(value).encode("utf-8")} writes (see
     * the class comment), keeping its modules, naming and other features, so an application's own mapper can share
     * a file with the Python library byte for byte; its read limits stay its own.
     *
     * @param mapper the mapper to start from
     * @return a new mapper with Python's spelling
     * @throws IllegalArgumentException when null
     * @since 0.1.0
     */
    public static JsonMapper withPythonSpelling(JsonMapper mapper) {
        if (mapper == null) {
            throw new InvalidArgumentException("mapper", "mapper must not be null");
        }
        return pythonSpelling(mapper.rebuild()).build();
    }

    /**
     * Returns the mapper {@link #of(Class)} uses: Python's spelling and read limits that admit any payload up to
     * {@link Serializer#MAX_PAYLOAD_BYTES}; shared and immutable, so a caller derives its own through
     * {@code rebuild()} rather than changing it.
     *
     * @return the default mapper
     * @since 0.1.0
     */
    public static JsonMapper defaultMapper() {
        return DEFAULT_MAPPER;
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
        StreamReadConstraints readLimits = StreamReadConstraints.builder()
                .maxStringLength(MAX_PAYLOAD_BYTES)
                .maxNameLength(MAX_PAYLOAD_BYTES)
                .maxNumberLength(MAX_PAYLOAD_BYTES)
                .maxNestingDepth(READ_DEPTH)
                .build();
        return pythonSpelling(JsonMapper.builder(JsonFactory.builder().streamReadConstraints(readLimits).build()))
                .build();
    }

    /** Sets Python's separators, its escaping of non-ASCII characters and its slashes left alone. */
    private static JsonMapper.Builder pythonSpelling(JsonMapper.Builder builder) {
        Separators separators = Separators.createDefaultInstance()
                .withObjectNameValueSpacing(Separators.Spacing.AFTER)
                .withObjectEntrySpacing(Separators.Spacing.AFTER)
                .withArrayElementSpacing(Separators.Spacing.AFTER)
                .withObjectEmptySeparator("")
                .withArrayEmptySeparator("");
        DefaultPrettyPrinter printer = new DefaultPrettyPrinter(separators)
                .withObjectIndenter(new DefaultPrettyPrinter.NopIndenter())
                .withArrayIndenter(new DefaultPrettyPrinter.NopIndenter());
        return builder
                .enable(JsonWriteFeature.ESCAPE_NON_ASCII)
                .disable(JsonWriteFeature.ESCAPE_FORWARD_SLASHES, JsonWriteFeature.WRITE_HEX_UPPER_CASE)
                .defaultPrettyPrinter(printer)
                .enable(SerializationFeature.INDENT_OUTPUT);
    }

    /**
     * Writes a payload as JSON and checks that this serializer's parser reads it back.
     *
     * @param value the payload
     * @return the JSON bytes
     * @throws IllegalArgumentException when the JSON would exceed {@link Serializer#MAX_PAYLOAD_BYTES} or could not
     *                                  be read back
     */
    @Override
    public byte[] serialize(T value) {
        BoundedBytes out = new BoundedBytes();
        try {
            mapper.writeValue(out, value);
        } catch (RuntimeException failure) {
            if (BoundedBytes.overflowed(failure)) {
                throw new IllegalArgumentException("the JSON of this payload exceeds " + MAX_PAYLOAD_BYTES
                        + " bytes (Serializer.MAX_PAYLOAD_BYTES)", failure);
            }
            throw failure;
        }
        byte[] bytes = out.toByteArray();
        // The default mapper reads every length and depth it writes, so only surrogates (in names) can differ.
        if (mapper != DEFAULT_MAPPER || holdsSurrogateEscape(bytes)) {
            requireReadable(bytes);
        }
        return bytes;
    }

    /** Tells whether JSON holds a backslash-u escape of a UTF-16 surrogate ({@code \ud800} to {@code \udfff}). */
    private static boolean holdsSurrogateEscape(byte[] json) {
        for (int i = 0; i + 3 < json.length; i++) {
            if (json[i] == '\\' && json[i + 1] == 'u' && (json[i + 2] | 0x20) == 'd') {
                byte third = (byte) (json[i + 3] | 0x20);
                if (third == '8' || third == '9' || (third >= 'a' && third <= 'f')) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Reads every token of {@code bytes} as {@code deserialize} would, so limits and malformed text show now. */
    private void requireReadable(byte[] bytes) {
        try (JsonParser parser = mapper.createParser(bytes)) {
            JsonToken token;
            while ((token = parser.nextToken()) != null) {
                if (token == JsonToken.VALUE_STRING || token == JsonToken.VALUE_NUMBER_INT
                        || token == JsonToken.VALUE_NUMBER_FLOAT) {
                    parser.finishToken();
                }
            }
        } catch (JacksonException failure) {
            throw new IllegalArgumentException("this payload's JSON could not be read back: "
                    + failure.getOriginalMessage(), failure);
        }
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
