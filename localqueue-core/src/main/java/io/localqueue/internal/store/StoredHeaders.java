package io.localqueue.internal.store;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * How {@code message_headers.headers} holds a job's headers: one JSON object of strings, in the order they were put,
 * readable by any tool that reads the file.
 */
public final class StoredHeaders {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();
    private static final TypeReference<LinkedHashMap<String, String>> TEXT_MAP = new TypeReference<>() {
    };

    private StoredHeaders() {
    }

    /** Encodes checked headers as a JSON object. */
    public static String encode(Map<String, String> headers) {
        return MAPPER.writeValueAsString(headers);
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
