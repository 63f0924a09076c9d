package io.localqueue.spring.aot;

import io.localqueue.QueueDiagnostics;
import io.localqueue.bus.ExecutionResult;
import io.localqueue.bus.ExecutionSummary;
import io.localqueue.spring.LocalQueueProperties;
import io.localqueue.spring.actuate.DeadLetterPage;
import io.localqueue.spring.actuate.ExecutionActions;
import io.localqueue.spring.actuate.LocalQueueEndpoint.QueuesDescriptor;
import io.localqueue.spring.actuate.LocalQueueEndpoint.RetryDescriptor;
import io.localqueue.spring.actuate.LocalQueueEndpoint.SubscriptionDescriptor;
import io.localqueue.spring.actuate.QueueActions.ActionDescriptor;
import io.localqueue.spring.actuate.RecurringActions;
import org.jspecify.annotations.Nullable;
import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.boot.context.properties.bind.BindableRuntimeHintsRegistrar;
import org.springframework.util.ClassUtils;

/**
 * What a native image of an application using localqueue needs beyond what Spring infers from its beans: the
 * build-stamped resources core and the auto-configuration read, the binding of {@code localqueue.*} onto
 * {@link LocalQueueProperties}, and, with actuator present, JSON for the endpoint's responses. The payload types of
 * {@code @QueueListener} methods are registered bean by bean at build time; the default JSON serializer needs nothing
 * else of its own.
 *
 * @since 0.1.0
 */
final class LocalQueueRuntimeHints implements RuntimeHintsRegistrar {

    /** What core reads for {@code packageVersion} in diagnostics. */
    static final String VERSION_RESOURCE = "io/localqueue/localqueue-version.properties";

    /** What the start reads to name, in the failure report of an old SQLite, the driver this build is tested with. */
    static final String BUILD_FACTS_RESOURCE = "io/localqueue/spring/autoconfigure/localqueue-spring.properties";

    private static final String ACTUATOR = "org.springframework.boot.actuate.endpoint.annotation.Endpoint";

    @Override
    public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
        hints.resources().registerPattern(VERSION_RESOURCE);
        hints.resources().registerPattern(BUILD_FACTS_RESOURCE);
        BindableRuntimeHintsRegistrar.forTypes(LocalQueueProperties.class).registerHints(hints, classLoader);
        if (ClassUtils.isPresent(ACTUATOR, classLoader)) {
            // The endpoint's responses, nested records included; they load without actuator, but serve only with it.
            new BindingReflectionHintsRegistrar().registerReflectionHints(hints.reflection(), QueuesDescriptor.class,
                    RetryDescriptor.class, ActionDescriptor.class, DeadLetterPage.class, QueueDiagnostics.class,
                    SubscriptionDescriptor.class, ExecutionResult.class, ExecutionSummary.class,
                    ExecutionActions.DeletionDescriptor.class, RecurringActions.RecurringDescriptor.class,
                    RecurringActions.ActionDescriptor.class);
        }
    }
}
