package io.localqueue.spring.autoconfigure;

import io.localqueue.spring.LocalQueueProperties;
import java.beans.PropertyDescriptor;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.BeanUtils;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;

/**
 * Reports a setting of a queue or subscription whose name holds a dot, written without Spring Boot's brackets
 * ({@code localqueue.queues.orders.eu.max-pending-jobs}): Boot reads the dot as a level of the property and leaves it
 * unbound. The report gives the user's own key in the bracket form; any other unbound property is left to Boot's own
 * report, which this one comes before.
 */
final class DottedNameFailureAnalyzer extends AbstractFailureAnalyzer<UnboundConfigurationPropertiesException>
        implements Ordered {

    /** The maps whose keys are names, with what each key names and the type of its values. */
    private static final List<NamedMap> MAPS = List.of(
            new NamedMap("localqueue.queues.", "queue", LocalQueueProperties.Queue.class),
            new NamedMap("localqueue.bus.subscriptions.", "subscription",
                    LocalQueueProperties.SubscriptionSettings.class));

    @Override
    protected @Nullable FailureAnalysis analyze(Throwable rootFailure, UnboundConfigurationPropertiesException cause) {
        List<String> descriptions = new ArrayList<>();
        List<String> fixes = new ArrayList<>();
        for (ConfigurationProperty property : cause.getUnboundProperties()) {
            String name = property.getName().toString();
            for (NamedMap map : MAPS) {
                String key = map.dottedKey(name);
                if (key != null) {
                    String setting = name.substring(map.prefix().length() + key.length());
                    descriptions.add(name + " (" + (property.getOrigin() != null ? property.getOrigin()
                            : "value '" + property.getValue() + "'") + ") is a setting of " + map.what() + " '" + key
                            + "'");
                    fixes.add(map.prefix() + "[" + key + "]" + setting + "=" + property.getValue() + "    (in YAML, \"["
                            + key + "]\": under " + map.prefix().substring(0, map.prefix().length() - 1) + ")");
                }
            }
        }
        if (descriptions.isEmpty()) {
            return null;
        }
        return new FailureAnalysis("A name with a dot was written without brackets, so Spring Boot read the dot as "
                + "a level of the property and could not bind it:\n\n    " + String.join("\n    ", descriptions),
                "Write the name in brackets, as Spring Boot binds map keys that hold dots:\n\n    "
                        + String.join("\n    ", fixes), cause);
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }

    /** A map of {@code LocalQueueProperties} keyed by names, and the settings each of its values has. */
    private record NamedMap(String prefix, String what, List<String> settings) {

        NamedMap(String prefix, String what, Class<?> values) {
            this(prefix, what, settings("", values).stream()
                    .sorted(Comparator.comparingInt(String::length).reversed()).toList());
        }

        /** The key holding a dot that {@code name} gives, when the rest of it is one of the values' settings. */
        @Nullable String dottedKey(String name) {
            if (!name.startsWith(prefix)) {
                return null;
            }
            String rest = name.substring(prefix.length());
            for (String setting : settings) {
                if (rest.endsWith("." + setting)) {
                    String key = rest.substring(0, rest.length() - setting.length() - 1);
                    return key.contains(".") ? key : null;
                }
            }
            return null;
        }

        /** Every setting of a properties type, in dashed form, nested groups of {@code LocalQueueProperties} walked. */
        private static List<String> settings(String prefix, Class<?> type) {
            List<String> settings = new ArrayList<>();
            for (PropertyDescriptor property : BeanUtils.getPropertyDescriptors(type)) {
                if (property.getReadMethod() == null || property.getName().equals("class")) {
                    continue;
                }
                String name = prefix + DataObjectPropertyName.toDashedForm(property.getName());
                Class<?> nested = property.getPropertyType();
                if (nested.getDeclaringClass() == LocalQueueProperties.class && !nested.isEnum()) {
                    settings.addAll(settings(name + ".", nested));
                } else {
                    settings.add(name);
                }
            }
            return settings;
        }
    }
}
