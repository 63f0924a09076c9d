package io.localqueue.bus;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares a record or class as an event of the bus: its type name, the schema version stored beside it, and the
 * fields whose values make its durable identity. The annotation is read from the concrete class only: a subclass
 * is its own event type, with no identity unless it declares one.
 *
 * <pre>{@code
 * import io.localqueue.bus.BusEvent;
 *
 * @BusEvent(name = "user.creation-requested", identity = {"importId", "externalId"})
 * record UserCreationRequested(String importId, String externalId, String name) {}
 * }</pre>
 *
 * @since 0.1.0
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface BusEvent {

    /**
     * The event type stored in the envelope's {@code event_type}; empty (the default) means the class's simple name.
     * It must not contain {@code *}.
     *
     * @return the type name, or "" for the simple class name
     */
    String name() default "";

    /**
     * The payload fields (JSON property names) whose values identify the event durably: a second event with the same
     * values is stored once per subscription, and one with the same values but another payload is a
     * {@link io.localqueue.DeduplicationConflictException}. Empty (the default) means no identity: every dispatch is
     * a new event. The order of the names does not matter.
     *
     * @return the identity fields, unique and not blank
     */
    String[] identity() default {};

    /**
     * The version of the payload's shape, stored as {@code event_schema = "<name>@<version>"}; identities of
     * different versions never match.
     *
     * @return the schema version, at least 1
     */
    int schemaVersion() default 1;
}
