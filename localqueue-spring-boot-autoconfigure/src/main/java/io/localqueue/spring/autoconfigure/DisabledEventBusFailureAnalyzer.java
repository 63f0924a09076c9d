package io.localqueue.spring.autoconfigure;

import io.localqueue.bus.EventBus;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.NoSuchBeanDefinitionException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;

/**
 * Reports a bean that needs the {@link EventBus} while {@code localqueue.bus.enabled} is false, naming that property
 * as the cause, before Boot's general report of a missing bean would only suggest defining one.
 */
final class DisabledEventBusFailureAnalyzer extends AbstractFailureAnalyzer<NoSuchBeanDefinitionException>
        implements Ordered {

    private final Environment environment;

    DisabledEventBusFailureAnalyzer(Environment environment) {
        this.environment = environment;
    }

    @Override
    protected @Nullable FailureAnalysis analyze(Throwable rootFailure, NoSuchBeanDefinitionException cause) {
        Class<?> wanted = cause.getBeanType();
        boolean disabled = !environment.getProperty("localqueue.bus.enabled", Boolean.class, true);
        if (wanted == null || !EventBus.class.isAssignableFrom(wanted) || !disabled) {
            return null;
        }
        return new FailureAnalysis("A bean needs the event bus (" + EventBus.class.getName() + "), but "
                + "localqueue.bus.enabled is false, so the application has none: " + cause.getMessage() + ".",
                "Remove localqueue.bus.enabled=false (or set it to true), or declare an EventBus bean of the "
                        + "application's own.", cause);
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }
}
