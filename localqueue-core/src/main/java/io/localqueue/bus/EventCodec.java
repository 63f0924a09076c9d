package io.localqueue.bus;

import io.localqueue.FailureReason;
import io.localqueue.Serializer;
import io.localqueue.internal.bus.EventIdentity;
import java.lang.reflect.Field;
import java.lang.reflect.RecordComponent;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.time.temporal.TemporalAccessor;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.PropertyNamingStrategy;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The stored envelope, byte for byte as the Python library's bus writes it through its JSON serializer: event id,
 * correlation, causation, type, schema, creation time (Python's {@code isoformat()} in UTC) and the business
 * payload; and its reading back, which says which failure reason an unreadable delivery gets.
 */
final class EventCodec {

    private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss");

    private final JsonMapper mapper;
    private final EventRegistry registry;

    EventCodec(JsonMapper mapper, EventRegistry registry) {
        this.mapper = mapper;
        this.registry = registry;
    }

    /** An event ready to be stored: its envelope bytes and, when its class has an identity, its keys. */
    record Encoded(EventType type, EventMetadata metadata, byte[] envelope, @Nullable String dedupKey,
                   @Nullable String fingerprint) {
    }

    /** A delivery read back: the event, or why it cannot be read. */
    record Decoded(@Nullable EventType type, @Nullable String typeName, @Nullable Object event,
                   @Nullable EventMetadata metadata, @Nullable FailureReason failure, @Nullable String error) {

        static Decoded failed(FailureReason reason, @Nullable String typeName, @Nullable EventMetadata metadata,
                              String error) {
            return new Decoded(null, typeName, null, metadata, reason, error);
        }
    }

    /**
     * Encodes an event, or an {@link EventEnvelope}, with new root metadata for a bare event.
     *
     * @throws IllegalArgumentException when the class is not a valid event or the payload is not a JSON object
     * @throws InvalidEventIdentityException when an identity value is missing, null, blank or not finite
     */
    Encoded encode(Object event, EventMetadata metadata) {
        EventType type = registry.register(event.getClass());
        ObjectNode payload = payloadOf(event, type);
        String dedupKey = null;
        String fingerprint = null;
        if (!type.identity().isEmpty()) {
            List<String> fields = jsonNames(type, payload);
            try {
                dedupKey = EventIdentity.key(type.schema(), payload, fields);
                fingerprint = EventIdentity.fingerprint(type.schema(), payload);
            } catch (IllegalArgumentException invalid) {
                throw new InvalidEventIdentityException(invalid.getMessage());
            }
        }
        ObjectNode envelope = JsonNodeFactory.instance.objectNode();
        envelope.put("event_id", metadata.eventId().toString());
        envelope.put("correlation_id", metadata.correlationId().toString());
        UUID causation = metadata.causationId();
        if (causation == null) {
            envelope.putNull("causation_id");
        } else {
            envelope.put("causation_id", causation.toString());
        }
        envelope.put("event_type", type.name());
        envelope.put("event_schema", type.schema());
        envelope.put("event_created_at", isoformat(metadata.createdAt()));
        envelope.set("payload", payload);
        byte[] bytes = mapper.writeValueAsBytes(envelope);
        if (bytes.length > Serializer.MAX_PAYLOAD_BYTES) {
            throw new IllegalArgumentException("the envelope of " + type.name() + " takes " + bytes.length
                    + " bytes, more than the " + Serializer.MAX_PAYLOAD_BYTES + " a delivery may hold");
        }
        return new Encoded(type, metadata, bytes, dedupKey, fingerprint);
    }

    /** Reads a stored envelope with this bus's event types. */
    Decoded decode(byte[] bytes) {
        JsonNode envelope;
        try {
            envelope = mapper.readTree(bytes);
        } catch (JacksonException malformed) {
            return Decoded.failed(FailureReason.INVALID_ENVELOPE, null, null,
                    "malformed envelope: " + malformed.getOriginalMessage());
        }
        if (envelope == null || !envelope.isObject()) {
            return Decoded.failed(FailureReason.INVALID_ENVELOPE, null, null,
                    "malformed envelope: expected a JSON object, got " + kind(envelope));
        }
        JsonNode typeNode = envelope.get("event_type");
        if (typeNode == null || !typeNode.isString()) {
            return Decoded.failed(FailureReason.INVALID_ENVELOPE, null, null,
                    "malformed envelope: missing 'event_type'");
        }
        String typeName = typeNode.stringValue();
        JsonNode payload = envelope.get("payload");
        if (payload == null || !payload.isObject()) {
            return Decoded.failed(FailureReason.INVALID_ENVELOPE, typeName, null,
                    "malformed envelope: 'payload' of '" + typeName + "' is not a JSON object");
        }
        EventMetadata metadata;
        try {
            metadata = metadataOf(envelope);
        } catch (IllegalArgumentException | DateTimeParseException invalid) {
            return Decoded.failed(FailureReason.INVALID_PAYLOAD, typeName, null,
                    "invalid payload for '" + typeName + "': " + invalid.getMessage());
        }
        EventType type = registry.find(typeName);
        if (type == null) {
            return Decoded.failed(FailureReason.UNKNOWN_EVENT_TYPE, typeName, metadata,
                    "unknown event: '" + typeName + "'");
        }
        try {
            Object event = mapper.treeToValue(payload, type.javaType());
            if (event == null) {
                throw new IllegalArgumentException("the payload reads as null");
            }
            return new Decoded(type, typeName, event, metadata, null, null);
        } catch (JacksonException | IllegalArgumentException invalid) {
            String message = invalid instanceof JacksonException jackson ? jackson.getOriginalMessage()
                    : invalid.getMessage();
            return Decoded.failed(FailureReason.INVALID_PAYLOAD, typeName, metadata,
                    "invalid payload for '" + typeName + "': " + message);
        }
    }

    /** Python's {@code datetime.isoformat()} of a UTC time: microseconds only when not zero, offset {@code +00:00}. */
    static String isoformat(Instant instant) {
        OffsetDateTime time = instant.atOffset(ZoneOffset.UTC);
        String seconds = SECONDS.format(time);
        int micros = time.getNano() / 1_000;
        return micros == 0 ? seconds + "+00:00" : seconds + String.format(".%06d+00:00", micros);
    }

    /** Reads a time as Python's {@code fromisoformat} would: a missing offset means UTC. */
    static Instant parseTime(String text) {
        TemporalAccessor parsed = DateTimeFormatter.ISO_DATE_TIME.parse(text.replace(' ', 'T'));
        if (parsed.isSupported(ChronoField.OFFSET_SECONDS)) {
            return OffsetDateTime.from(parsed).toInstant();
        }
        return java.time.LocalDateTime.from(parsed).toInstant(ZoneOffset.UTC);
    }

    private ObjectNode payloadOf(Object event, EventType type) {
        JsonNode tree;
        try {
            tree = mapper.valueToTree(event);
        } catch (JacksonException failure) {
            throw new IllegalArgumentException("event " + type.name() + " cannot be written as JSON: "
                    + failure.getOriginalMessage(), failure);
        }
        if (!(tree instanceof ObjectNode payload)) {
            throw new IllegalArgumentException("event " + type.name() + " of " + type.javaType().getName()
                    + " must be written as a JSON object, got " + kind(tree));
        }
        for (String reserved : EventType.METADATA_KEYS) {
            if (payload.has(reserved) && !reserved.equals("payload")) {
                throw new IllegalArgumentException("event " + type.name() + " has a field '" + reserved
                        + "', which the envelope keeps as metadata; rename it");
            }
        }
        return payload;
    }

    /** The JSON names of the identity fields: as declared, or through the mapper's naming strategy. */
    private List<String> jsonNames(EventType type, ObjectNode payload) {
        PropertyNamingStrategy naming = mapper.serializationConfig().getPropertyNamingStrategy();
        List<String> names = new ArrayList<>(type.identity().size());
        for (String field : type.identity()) {
            String translated = naming instanceof PropertyNamingStrategies.NamingBase base
                    ? base.nameForField(mapper.serializationConfig(), null, field) : field;
            if (!payload.has(field) && payload.has(translated)) {
                names.add(translated);
            } else {
                names.add(field);
            }
        }
        return names;
    }

    /** Checks that every identity field is a field of the class, so a typo fails at registration. */
    static void requireIdentityFields(EventType type) {
        for (String field : type.identity()) {
            if (!hasField(type.javaType(), field)) {
                throw new InvalidEventIdentityException("identity of " + type.javaType().getName() + " names '"
                        + field + "', which is not one of its fields");
            }
        }
    }

    private static boolean hasField(Class<?> type, String name) {
        if (type.isRecord()) {
            for (RecordComponent component : type.getRecordComponents()) {
                if (component.getName().equals(name)) {
                    return true;
                }
            }
            return false;
        }
        for (Class<?> current = type; current != null && current != Object.class; current = current.getSuperclass()) {
            for (Field field : current.getDeclaredFields()) {
                if (field.getName().equals(name)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static EventMetadata metadataOf(JsonNode envelope) {
        UUID eventId = uuid(envelope, "event_id");
        if (eventId == null) {
            throw new IllegalArgumentException("missing 'event_id'");
        }
        UUID correlation = uuid(envelope, "correlation_id");
        JsonNode created = envelope.get("event_created_at");
        if (created == null || !created.isString()) {
            throw new IllegalArgumentException("missing 'event_created_at'");
        }
        return new EventMetadata(eventId, correlation == null ? eventId : correlation, uuid(envelope, "causation_id"),
                parseTime(created.stringValue()));
    }

    private static @Nullable UUID uuid(JsonNode envelope, String key) {
        JsonNode value = envelope.get(key);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isString()) {
            throw new IllegalArgumentException("'" + key + "' is not a string");
        }
        try {
            return UUID.fromString(value.stringValue());
        } catch (IllegalArgumentException invalid) {
            throw new IllegalArgumentException("'" + key + "' is not a UUID: " + value.stringValue());
        }
    }

    private static String kind(@Nullable JsonNode node) {
        return node == null ? "nothing" : node.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
    }
}
