package io.localqueue.spring;

import io.localqueue.InvalidArgumentException;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * Applies configuration properties' values to the objects the validation rules live in, so that a bad value ends the
 * start in Boot's failure report naming the property, where it was set and why it was refused; the one place that
 * turns a refusal into that report, for the auto-configuration and the event bus's lifecycle alike.
 *
 * @since 0.1.0
 */
public final class PropertyChecks {

    private PropertyChecks() {
    }

    /**
     * Returns what {@code apply} makes of one property's value, turning its {@link IllegalArgumentException} into
     * Boot's {@link InvalidConfigurationPropertyValueException} for {@code property}.
     *
     * @param property the property's full name
     * @param value its value, for the report
     * @param apply what makes use of the value
     * @param <T> what it makes
     * @return what it made
     * @throws InvalidConfigurationPropertyValueException when {@code apply} refuses the value
     */
    public static <T> T apply(String property, @Nullable Object value, Supplier<T> apply) {
        try {
            return apply.get();
        } catch (IllegalArgumentException refused) {
            throw new InvalidConfigurationPropertyValueException(property, value, refused.getMessage());
        }
    }

    /**
     * Applies a value the way {@link #apply} does, for a setter that returns nothing; an
     * {@link IllegalStateException} (a setting that can no longer change) is reported the same way.
     *
     * @param property the property's full name
     * @param value its value, for the report
     * @param setter what makes use of the value
     * @throws InvalidConfigurationPropertyValueException when the setter refuses the value
     */
    public static void set(String property, @Nullable Object value, Runnable setter) {
        try {
            setter.run();
        } catch (IllegalArgumentException | IllegalStateException refused) {
            throw new InvalidConfigurationPropertyValueException(property, value, refused.getMessage());
        }
    }

    /**
     * Returns what {@code apply} makes of several properties under one prefix, reporting a refusal against the
     * property of the parameter it names ({@link InvalidArgumentException#parameter()}, {@code maxAttempts} becoming
     * {@code <prefix>.max-attempts}), or against the prefix itself when it names none.
     *
     * @param prefix the properties' common prefix, without a trailing dot
     * @param valueOf the value of a property under the prefix by its last segment ({@code max-attempts}), or null
     *                when unset
     * @param apply what makes use of the values
     * @param <T> what it makes
     * @return what it made
     * @throws InvalidConfigurationPropertyValueException when {@code apply} refuses a value
     */
    public static <T> T applyAll(String prefix, Function<String, @Nullable Object> valueOf, Supplier<T> apply) {
        try {
            return apply.get();
        } catch (InvalidArgumentException refused) {
            String segment = kebabCase(refused.parameter());
            Object value = valueOf.apply(segment);
            throw new InvalidConfigurationPropertyValueException(prefix + "." + segment,
                    value != null ? value : "its default", refused.getMessage());
        } catch (IllegalArgumentException refused) {
            throw new InvalidConfigurationPropertyValueException(prefix, "(several)", refused.getMessage());
        }
    }

    /** A parameter's name as a property segment: {@code maxAttempts} becomes {@code max-attempts}. */
    static String kebabCase(String parameter) {
        return parameter.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }
}
