package io.localqueue.bus;

import io.localqueue.FailureReason;
import io.localqueue.Serializer;
import io.localqueue.internal.bus.EventIdentity;
import java.io.ByteArrayOutputStream;
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
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.ObjectWriter;
import tools.jackson.databind.PropertyNamingStrategy;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The stored envelope, byte for byte as the Python library's bus writes it through its JSON serializer: event id,
 * correlation, causation, type, schema, creation time (Python's {@code isoformat()} in UTC) and the business
 * payload; and its reading back, which says which failure reason an unreadable delivery gets.
 */
final class EventCodec {

    private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss");

    private final JsonMapper mapper;
    private final ObjectWriter writer;
    private final EventRegistry registry;
    /** Event classes whose payload was checked to be a JSON object without envelope keys; written without a tree. */
    private final Set<Class<?>> checkedShapes = ConcurrentHashMap.newKeySet();
    private final Map<Class<?>, ObjectReader> payloadReaders = new ConcurrentHashMap<>();

    EventCodec(JsonMapper mapper, EventRegistry registry) {
        this.mapper = mapper;
        this.writer = mapper.writer();
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
        ObjectNode payload = null;
        String dedupKey = null;
        String fingerprint = null;
        if (!type.identity().isEmpty() || !checkedShapes.contains(type.javaType())) {
            payload = payloadOf(event, type);
            if (type.identity().isEmpty() && !Map.class.isAssignableFrom(type.javaType())) {
                checkedShapes.add(type.javaType());
            }
        }
        if (!type.identity().isEmpty()) {
            List<String> fields = jsonNames(type, payload);
            try {
                dedupKey = EventIdentity.key(type.schema(), payload, fields);
                fingerprint = EventIdentity.fingerprint(type.schema(), payload);
            } catch (IllegalArgumentException invalid) {
                throw new InvalidEventIdentityException(invalid.getMessage());
            }
        }
        byte[] bytes = envelope(type, metadata, event, payload);
        if (bytes.length > Serializer.MAX_PAYLOAD_BYTES) {
            throw new IllegalArgumentException("the envelope of " + type.name() + " takes " + bytes.length
                    + " bytes, more than the " + Serializer.MAX_PAYLOAD_BYTES + " a delivery may hold");
        }
        return new Encoded(type, metadata, bytes, dedupKey, fingerprint);
    }

    /**
     * Writes the envelope in one pass: the payload from its tree when there is one, else straight from the event
     * (whose class wrote a JSON object without envelope keys the first time, as a record or class does every time).
     */
    private byte[] envelope(EventType type, EventMetadata metadata, Object event, @Nullable ObjectNode payload) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        try (JsonGenerator generator = writer.createGenerator(out)) {
            generator.writeStartObject();
            generator.writeStringProperty("event_id", metadata.eventId().toString());
            generator.writeStringProperty("correlation_id", metadata.correlationId().toString());
            UUID causation = metadata.causationId();
            if (causation == null) {
                generator.writeNullProperty("causation_id");
            } else {
                generator.writeStringProperty("causation_id", causation.toString());
            }
            generator.writeStringProperty("event_type", type.name());
            generator.writeStringProperty("event_schema", type.schema());
            generator.writeStringProperty("event_created_at", isoformat(metadata.createdAt()));
            generator.writeName("payload");
            if (payload != null) {
                generator.writeTree(payload);
            } else {
                generator.writePOJO(event);
            }
            generator.writeEndObject();
        } catch (JacksonException failure) {
            throw new IllegalArgumentException("event " + type.name() + " cannot be written as JSON: "
                    + failure.getOriginalMessage(), failure);
        }
        return out.toByteArray();
    }

    /** Reads a stored envelope with this bus's event types. */
    Decoded decode(byte[] bytes) {
        Decoded fast = decodeInOnePass(bytes);
        return fast != null ? fast : decodeTree(bytes);
    }

    /**
     * Reads an envelope whose type comes before its payload (as both libraries write it) and is known here, binding
     * the payload straight from the parser; returns null for anything else, which the tree reading judges.
     */
    @Nullable Decoded decodeInOnePass(byte[] bytes) {
        try (JsonParser parser = mapper.createParser(bytes)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            String eventId = null;
            String correlation = null;
            String causation = null;
            String typeName = null;
            String created = null;
            Object event = null;
            EventType type = null;
            JsonToken token;
            while ((token = parser.nextToken()) == JsonToken.PROPERTY_NAME) {
                String name = parser.currentName();
                JsonToken value = parser.nextToken();
                switch (name) {
                    case "event_id" -> eventId = textOrNull(parser, value);
                    case "correlation_id" -> correlation = textOrNull(parser, value);
                    case "causation_id" -> causation = textOrNull(parser, value);
                    case "event_type" -> typeName = textOrNull(parser, value);
                    case "event_created_at" -> created = textOrNull(parser, value);
                    case "payload" -> {
                        type = typeName == null ? null : registry.find(typeName);
                        if (type == null || value != JsonToken.START_OBJECT) {
                            return null;
                        }
                        event = payloadReader(type.javaType()).readValue(parser);
                    }
                    default -> parser.skipChildren();
                }
            }
            if (token != JsonToken.END_OBJECT || event == null || eventId == null || created == null
                    || parser.nextToken() != null) {
                return null;
            }
            UUID id = UUID.fromString(eventId);
            EventMetadata metadata = new EventMetadata(id, correlation == null ? id : UUID.fromString(correlation),
                    causation == null ? null : UUID.fromString(causation), parseTime(created));
            return new Decoded(type, typeName, event, metadata, null, null);
        } catch (JacksonException | IllegalArgumentException | DateTimeParseException | ClassCastException odd) {
            return null;
        }
    }

    /** A reader of one event class that binds a payload in the middle of an envelope: more tokens follow it. */
    private ObjectReader payloadReader(Class<?> type) {
        return payloadReaders.computeIfAbsent(type,
                cls -> mapper.readerFor(cls).without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS));
    }

    private static @Nullable String textOrNull(JsonParser parser, JsonToken value) {
        if (value == JsonToken.VALUE_STRING) {
            return parser.getString();
        }
        if (value == JsonToken.VALUE_NULL) {
            return null;
        }
        throw new IllegalArgumentException("not a string");
    }

    /** Reads an envelope through a JSON tree, which tells apart every way an envelope can be unreadable. */
    private Decoded decodeTree(byte[] bytes) {
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
        StringBuilder text = new StringBuilder(32);
        int year = time.getYear();
        if (year < 1000 || year > 9999) {
            text.append(SECONDS.format(time));
        } else {
            text.append(year).append('-');
            twoDigits(text, time.getMonthValue()).append('-');
            twoDigits(text, time.getDayOfMonth()).append('T');
            twoDigits(text, time.getHour()).append(':');
            twoDigits(text, time.getMinute()).append(':');
            twoDigits(text, time.getSecond());
        }
        int micros = time.getNano() / 1_000;
        if (micros != 0) {
            String digits = Integer.toString(micros);
            text.append('.').append("000000", 0, 6 - digits.length()).append(digits);
        }
        return text.append("+00:00").toString();
    }

    private static StringBuilder twoDigits(StringBuilder text, int value) {
        return text.append((char) ('0' + value / 10)).append((char) ('0' + value % 10));
    }

    /**
     * Reads a time as Python's {@code fromisoformat} would: a missing offset means UTC. The shape both libraries
     * write ({@code 2026-07-25T10:15:30.123456+00:00}) is read directly; any other goes through the ISO formatter.
     */
    static Instant parseTime(String text) {
        Instant quick = utcIsoformat(text);
        if (quick != null) {
            return quick;
        }
        TemporalAccessor parsed = DateTimeFormatter.ISO_DATE_TIME.parse(text.replace(' ', 'T'));
        if (parsed.isSupported(ChronoField.OFFSET_SECONDS)) {
            return OffsetDateTime.from(parsed).toInstant();
        }
        return java.time.LocalDateTime.from(parsed).toInstant(ZoneOffset.UTC);
    }

    /** Reads {@code yyyy-MM-ddTHH:mm:ss[.ffffff]+00:00}, or returns null for any other shape. */
    private static @Nullable Instant utcIsoformat(String text) {
        int length = text.length();
        if (length != 25 && length != 32 || !text.endsWith("+00:00") || text.charAt(4) != '-'
                || text.charAt(7) != '-' || text.charAt(10) != 'T' || text.charAt(13) != ':'
                || text.charAt(16) != ':' || (length == 32 && text.charAt(19) != '.')) {
            return null;
        }
        int year = digits(text, 0, 4);
        int month = digits(text, 5, 7);
        int day = digits(text, 8, 10);
        int hour = digits(text, 11, 13);
        int minute = digits(text, 14, 16);
        int second = digits(text, 17, 19);
        int micros = length == 32 ? digits(text, 20, 26) : 0;
        if (year < 0 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0 || minute > 59
                || second < 0 || second > 59 || micros < 0) {
            return null;
        }
        try {
            return java.time.LocalDateTime.of(year, month, day, hour, minute, second, micros * 1_000)
                    .toInstant(ZoneOffset.UTC);
        } catch (java.time.DateTimeException invalid) {
            return null;
        }
    }

    /** The decimal number in {@code text[from, to)}, or -1 when a character is not a digit. */
    private static int digits(String text, int from, int to) {
        int value = 0;
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
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

    /**
     * Checks, when a class is registered, that every identity field is one of its fields and that none of its fields
     * bears an envelope key's name, so either mistake fails before anything is dispatched.
     */
    static void requireIdentityFields(EventType type) {
        for (String reserved : EventType.METADATA_KEYS) {
            if (!reserved.equals("payload") && hasField(type.javaType(), reserved)) {
                throw new IllegalArgumentException("event class " + type.javaType().getName() + " has a field '"
                        + reserved + "', which the envelope keeps as metadata; rename it");
            }
        }
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
