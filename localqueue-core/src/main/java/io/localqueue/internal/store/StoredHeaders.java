package io.localqueue.internal.store;

import io.localqueue.InvalidArgumentException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * How {@code message_headers.headers} holds the headers of a job or of a bus delivery: one JSON object of strings, in
 * the order they were put, readable by any tool that reads the file; and the check every writer of headers makes, so
 * that what is stored reads back exactly as it was given.
 */
public final class StoredHeaders {

    /**
     * The most characters the names and values of one row's headers may hold together: room for a W3C trace context
     * and a full W3C baggage header.
     */
    public static final int MAX_LENGTH = 16_384;

    private static final JsonMapper MAPPER = JsonMapper.builder().build();
    private static final TypeReference<LinkedHashMap<String, String>> TEXT_MAP = new TypeReference<>() {
    };

    private StoredHeaders() {
    }

    /**
     * Returns {@code headers} when every name is non-empty, every value present, all of it well-formed UTF-16 and
     * at most {@link #MAX_LENGTH} characters in all.
     *
     * @param headers the headers to store
     * @param parameter the parameter's name, for the message
     * @return {@code headers}
     * @throws IllegalArgumentException naming {@code parameter} and the header at fault
     */
    public static Map<String, String> require(Map<String, String> headers, String parameter) {
        long length = 0;
        for (Map.Entry<String, String> header : headers.entrySet()) {
            String name = header.getKey();
            if (name == null || name.isEmpty()) {
                throw new InvalidArgumentException(parameter, parameter + " holds a header without a name");
            }
            String value = header.getValue();
            if (value == null) {
                throw new InvalidArgumentException(parameter, parameter + " holds no value for header '" + name + "'");
            }
            StoredText.requireWellFormed(name, parameter + " name '" + name + "'");
            StoredText.requireWellFormed(value, parameter + "['" + name + "']");
            length += name.length() + value.length();
        }
        if (length > MAX_LENGTH) {
            throw new InvalidArgumentException(parameter, parameter + " hold " + length + " characters, over the limit of "
                    + MAX_LENGTH);
        }
        return headers;
    }

    /** Encodes checked headers as a JSON object. */
    public static String encode(Map<String, String> headers) {
        return MAPPER.writeValueAsString(headers);
    }

    /**
     * Encodes the headers of many rows, each distinct map once when the same one comes again in a row (as the
     * deliveries of one dispatch share theirs).
     *
     * @param headers checked headers, one map per row
     * @return the JSON objects, index by index
     */
    public static List<String> encodeAll(List<Map<String, String>> headers) {
        List<String> encoded = new ArrayList<>(headers.size());
        Map<String, String> previous = null;
        String previousText = null;
        for (Map<String, String> own : headers) {
            if (own != previous) {
                previous = own;
                previousText = encode(own);
            }
            encoded.add(previousText);
        }
        return encoded;
    }

    /**
     * Decodes stored headers; none stored, or text that is not a JSON object of strings (written by some other
     * program), reads as no headers, so that a claim never fails for them.
     */
    public static Map<String, String> decode(@Nullable String text) {
        if (text == null) {
            return Map.of();
        }
        try {
            LinkedHashMap<String, String> headers = MAPPER.readValue(text, TEXT_MAP);
            if (headers == null || headers.containsValue(null)) {
                return Map.of();
            }
            return Collections.unmodifiableMap(headers);
        } catch (JacksonException unreadable) {
            return Map.of();
        }
    }
}
