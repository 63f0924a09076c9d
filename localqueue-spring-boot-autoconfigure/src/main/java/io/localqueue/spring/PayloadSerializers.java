package io.localqueue.spring;

import io.localqueue.JsonSerializer;
import io.localqueue.Serializer;
import java.lang.reflect.Type;
import tools.jackson.databind.json.JsonMapper;

/**
 * Chooses the serializer of each queue and payload type the application opens; declare a bean of this type to
 * replace the default, JSON through the application's {@link JsonMapper} with the Python library's spelling. A
 * serializer returned for a type must decode to that type; files shared with Python need one it can read.
 *
 * <pre>{@code
 * @Bean
 * PayloadSerializers payloadSerializers() {
 *     return (queue, type) -> queue.startsWith("raw.") ? new BytesSerializer() : JsonSerializer.ofType(type);
 * }
 * }</pre>
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface PayloadSerializers {

    /**
     * Returns the serializer for one queue's payloads of one type.
     *
     * @param queue the queue name
     * @param payloadType a class, or a parameterized type whose arguments are all resolved
     * @return the serializer; never null
     */
    Serializer<?> serializerFor(String queue, Type payloadType);

    /**
     * Returns JSON through {@code mapper} for every queue and type.
     *
     * @param mapper the mapper, used as it is
     * @return the serializers
     */
    static PayloadSerializers json(JsonMapper mapper) {
        return (queue, payloadType) -> JsonSerializer.ofType(payloadType, mapper);
    }

    /**
     * Returns JSON through the default mapper, which writes what the Python library writes, for every queue and
     * type.
     *
     * @return the serializers
     */
    static PayloadSerializers json() {
        return (queue, payloadType) -> JsonSerializer.ofType(payloadType);
    }
}
