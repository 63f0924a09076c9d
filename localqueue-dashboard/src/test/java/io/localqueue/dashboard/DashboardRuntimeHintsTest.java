package io.localqueue.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;

/** A native image finds the page, its files and the JSON of its reads and actions. */
class DashboardRuntimeHintsTest {

    @Test
    void thePageItsFilesAndItsJsonAreRegistered() {
        RuntimeHints hints = new RuntimeHints();
        new DashboardRuntimeHints().registerHints(hints, getClass().getClassLoader());

        assertThat(RuntimeHintsPredicates.resource().forResource("io/localqueue/dashboard/index.html"))
                .accepts(hints);
        assertThat(RuntimeHintsPredicates.resource().forResource("io/localqueue/dashboard/assets/dashboard.js"))
                .accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onType(JobReader.JobDetail.class)).accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onType(Overview.QueueRow.class)).accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onType(DashboardActions.ActionRequest.class)).accepts(hints);
    }
}
