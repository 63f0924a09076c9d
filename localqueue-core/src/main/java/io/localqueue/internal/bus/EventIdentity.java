package io.localqueue.internal.bus;

import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * An event's durable identity as the reference's bus stores it: the dedup key hashes the event's schema
 * ({@code type@version}) with its identity fields, the fingerprint hashes the schema with its whole business payload
 * (no event id, time, correlation or causation), both over {@link CanonicalJson}, so Java and Python processes
 * dispatching the same event into one file find each other's rows. The order the identity fields are declared in
 * does not matter.
 */
public final class EventIdentity {

    /** What every identity key starts with. */
    public static final String KEY_PREFIX = "event-identity:v1:";
    /** What every payload fingerprint starts with. */
    public static final String FINGERPRINT_PREFIX = "event-payload:v1:";

    private EventIdentity() {
    }

    /**
     * Computes the dedup key.
     *
     * @param eventSchema the event's {@code type@version}
     * @param payload the business payload as JSON
     * @param fields the identity's field names
     * @return the key
     * @throws IllegalArgumentException naming the field, when one is missing, null, a blank string or not finite
     */
    public static String key(String eventSchema, ObjectNode payload, List<String> fields) {
        ObjectNode identity = JsonNodeFactory.instance.objectNode();
        for (String field : fields) {
            JsonNode value = payload.get(field);
            if (value == null || value.isNull()) {
                throw new IllegalArgumentException("identity field '" + field + "' of " + eventSchema
                        + " must have a value");
            }
            if (value.isString() && isBlank(value.stringValue())) {
                throw new IllegalArgumentException("identity field '" + field + "' of " + eventSchema
                        + " must not be blank");
            }
            identity.set(field, value);
        }
        ObjectNode hashed = JsonNodeFactory.instance.objectNode();
        hashed.put("event_schema", eventSchema);
        hashed.set("identity", identity);
        return KEY_PREFIX + sha256(hashed, eventSchema);
    }

    /**
     * Computes the payload fingerprint.
     *
     * @param eventSchema the event's {@code type@version}
     * @param payload the business payload as JSON
     * @return the fingerprint
     * @throws IllegalArgumentException when the payload holds a number that is not finite
     */
    public static String fingerprint(String eventSchema, ObjectNode payload) {
        ObjectNode hashed = JsonNodeFactory.instance.objectNode();
        hashed.put("event_schema", eventSchema);
        hashed.set("payload", payload);
        return FINGERPRINT_PREFIX + sha256(hashed, eventSchema);
    }

    private static String sha256(ObjectNode hashed, String eventSchema) {
        try {
            return CanonicalJson.sha256(hashed);
        } catch (IllegalArgumentException notFinite) {
            throw new IllegalArgumentException("the identity of " + eventSchema + " cannot be computed: "
                    + notFinite.getMessage(), notFinite);
        }
    }

    /** Python's {@code str.isspace()} over the whole string: Java's whitespace and the Unicode space separators. */
    private static boolean isBlank(String value) {
        return value.codePoints().allMatch(c -> Character.isWhitespace(c) || Character.isSpaceChar(c));
    }
}
