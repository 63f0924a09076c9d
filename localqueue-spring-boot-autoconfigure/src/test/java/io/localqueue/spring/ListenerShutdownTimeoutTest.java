package io.localqueue.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.spring.listener.QueueListenerContainer;
import io.localqueue.spring.listener.QueueListenerEndpointRegistry;
import io.localqueue.spring.listener.ShutdownPhase;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/** The listeners' drain at shutdown fits the shutdown phase Spring gives it. */
@ExtendWith(OutputCaptureExtension.class)
class ListenerShutdownTimeoutTest extends ContextRunnerTestBase {

    @Test
    void theDrainFitsThePhaseWithAMarginOfFiveSecondsOrAFifth() {
        assertThat(ShutdownPhase.maxWait(Duration.ofSeconds(30)))
                .isEqualTo(Duration.ofSeconds(25));
        assertThat(ShutdownPhase.maxWait(Duration.ofMinutes(2)))
                .isEqualTo(Duration.ofSeconds(115));
        assertThat(ShutdownPhase.maxWait(Duration.ofSeconds(10)))
                .isEqualTo(Duration.ofSeconds(8));
        assertThat(ShutdownPhase.maxWait(Duration.ZERO)).isZero();
    }

    @Test
    void withoutAShutdownTimeoutListenersWaitWhatBootsDefaultPhaseAllows(CapturedOutput output) {
        onListener().run(context -> assertThat(container(context).shutdownTimeout())
                .isEqualTo(Duration.ofSeconds(25)));
        assertThat(output).doesNotContain("timeout-per-shutdown-phase");
    }

    @Test
    void withoutAShutdownTimeoutListenersWaitWhatTheConfiguredPhaseAllows() {
        onListener().withPropertyValues("spring.lifecycle.timeout-per-shutdown-phase=1m").run(context ->
                assertThat(container(context).shutdownTimeout()).isEqualTo(Duration.ofSeconds(55)));
    }

    @Test
    void aShutdownTimeoutWithinThePhaseIsKeptQuietly(CapturedOutput output) {
        onListener().withPropertyValues("localqueue.listener.shutdown-timeout=5s").run(context ->
                assertThat(container(context).shutdownTimeout()).isEqualTo(Duration.ofSeconds(5)));
        assertThat(output).doesNotContain("timeout-per-shutdown-phase");
    }

    @Test
    void aShutdownTimeoutLongerThanThePhaseIsReportedAtStartWithTheFix(CapturedOutput output) {
        onListener().withPropertyValues("localqueue.listener.shutdown-timeout=60s").run(context ->
                assertThat(container(context).shutdownTimeout()).isEqualTo(Duration.ofSeconds(60)));
        assertThat(output).contains("WARN").contains("@QueueListener 'emails.handle' would wait up to 60s")
                .contains("Spring waits 30s").contains("It will wait 25s")
                .contains("raise spring.lifecycle.timeout-per-shutdown-phase to at least 65s");
    }

    @Test
    void listenersWaitingLongerThanThePhaseAreNamedInOneWarning(CapturedOutput output) {
        onListener().withBean("reports", Listener.class, Listener::new)
                .withPropertyValues("localqueue.listener.shutdown-timeout=60s")
                .run(context -> assertThat(context).hasNotFailed());

        assertThat(output).contains("@QueueListener 'emails.handle', 'reports.handle' would wait up to 60s");
        assertThat(output.toString().split("would wait up to", -1)).as("one warning").hasSize(2);
    }

    private org.springframework.boot.test.context.runner.ApplicationContextRunner onListener() {
        return onTempDir().withBean("emails", Listener.class, Listener::new);
    }

    private static QueueListenerContainer container(org.springframework.context.ApplicationContext context) {
        return context.getBean(QueueListenerEndpointRegistry.class).getListenerContainer("emails.handle");
    }

    static class Listener {
        @QueueListener(queue = "emails")
        void handle(String email) {
        }
    }
}
