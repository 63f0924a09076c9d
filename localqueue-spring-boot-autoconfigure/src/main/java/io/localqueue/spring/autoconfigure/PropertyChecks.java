package io.localqueue.spring.autoconfigure;

import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * Applies one configuration property's value to the object the validation rules live in, so a bad value ends the
 * start in Boot's failure report naming the property, where it was set and why it was refused.
 */
final class PropertyChecks {

    private PropertyChecks() {
    }

    /**
     * Returns what {@code apply} makes of the value, turning its {@link IllegalArgumentException} into Boot's
     * {@link InvalidConfigurationPropertyValueException} for {@code property}.
     */
    static <T> T apply(String property, @Nullable Object value, Supplier<T> apply) {
        try {
            return apply.get();
        } catch (IllegalArgumentException refused) {
            throw new InvalidConfigurationPropertyValueException(property, value, refused.getMessage());
        }
    }

    /** Applies a value the way {@link #apply} does, for a setter that returns nothing. */
    static void set(String property, @Nullable Object value, Runnable setter) {
        apply(property, value, () -> {
            setter.run();
            return null;
        });
    }
}
