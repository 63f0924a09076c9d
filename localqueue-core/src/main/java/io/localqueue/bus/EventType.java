package io.localqueue.bus;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What {@link BusEvent} declares of a class, or its defaults for a class without it: the type name, the schema
 * version and the identity fields, checked once per class.
 *
 * @param javaType the class
 * @param name the stored {@code event_type}
 * @param schemaVersion the version in {@code event_schema}
 * @param identity the identity fields as declared, or empty
 */
record EventType(Class<?> javaType, String name, int schemaVersion, List<String> identity) {

    /** The envelope's metadata keys, which a payload field of an identity may not be. */
    static final Set<String> METADATA_KEYS = Set.of("event_id", "correlation_id", "causation_id", "event_type",
            "event_schema", "event_created_at", "payload");

    private static final ClassValue<EventType> DECLARED = new ClassValue<>() {
        @Override
        protected EventType computeValue(Class<?> type) {
            return declaredBy(type);
        }
    };

    /**
     * Returns the event type a class declares.
     *
     * @throws IllegalArgumentException when the declaration is invalid, naming the class and what is wrong
     */
    static EventType of(Class<?> type) {
        if (type == null) {
            throw new IllegalArgumentException("event class must not be null");
        }
        return DECLARED.get(type);
    }

    /** Returns {@code event_schema}: the type name and schema version, {@code "name@version"}. */
    String schema() {
        return name + "@" + schemaVersion;
    }

    private static EventType declaredBy(Class<?> type) {
        if (type.isPrimitive() || type.isArray() || type.isInterface() || type.isEnum()
                || java.lang.reflect.Modifier.isAbstract(type.getModifiers())) {
            throw new IllegalArgumentException(type.getName() + " cannot be an event: an event is a concrete record "
                    + "or class whose fields are its JSON payload");
        }
        BusEvent declared = type.getAnnotation(BusEvent.class);
        String name = declared == null || declared.name().isEmpty() ? type.getSimpleName() : declared.name();
        if (name.isBlank() || name.contains("*")) {
            throw new IllegalArgumentException("event type '" + name + "' of " + type.getName()
                    + " is invalid: it must not be blank or contain '*'");
        }
        int version = declared == null ? 1 : declared.schemaVersion();
        if (version < 1) {
            throw new IllegalArgumentException("schemaVersion of " + type.getName() + " must be at least 1, got "
                    + version);
        }
        List<String> identity = declared == null ? List.of() : List.of(declared.identity());
        Set<String> unique = new LinkedHashSet<>();
        for (String field : identity) {
            if (field.isBlank()) {
                throw new InvalidEventIdentityException("identity of " + type.getName()
                        + " names a blank field: " + Arrays.toString(declared.identity()));
            }
            if (METADATA_KEYS.contains(field)) {
                throw new InvalidEventIdentityException("identity of " + type.getName() + " names '" + field
                        + "', which is envelope metadata, not a payload field");
            }
            if (!unique.add(field)) {
                throw new InvalidEventIdentityException("identity of " + type.getName() + " names '" + field
                        + "' twice");
            }
        }
        return new EventType(type, name, version, identity);
    }
}
