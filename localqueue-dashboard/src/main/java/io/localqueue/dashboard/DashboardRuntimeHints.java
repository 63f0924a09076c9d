package io.localqueue.dashboard;

import org.jspecify.annotations.Nullable;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.boot.context.properties.bind.BindableRuntimeHintsRegistrar;

/**
 * What a native image of an application with the dashboard needs beyond what Spring infers: the page and its files
 * in the jar, the binding of {@code localqueue.dashboard.*}, and JSON for the page's reads and its actions.
 */
final class DashboardRuntimeHints implements RuntimeHintsRegistrar {

    @Override
    public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
        hints.resources().registerPattern("io/localqueue/dashboard/index.html");
        hints.resources().registerPattern("io/localqueue/dashboard/assets/*");
        BindableRuntimeHintsRegistrar.forTypes(DashboardProperties.class).registerHints(hints, classLoader);
        new BindingReflectionHintsRegistrar().registerReflectionHints(hints.reflection(), Overview.Report.class,
                JobReader.JobPage.class, JobReader.JobDetail.class, JobReader.DeliveryPage.class,
                DashboardActions.ActionRequest.class, DashboardActions.Result.class, DashboardActionEvent.class);
    }
}
