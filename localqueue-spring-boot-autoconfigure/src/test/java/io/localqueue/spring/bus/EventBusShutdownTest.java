package io.localqueue.spring.bus;

import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.QueueStats;
import io.localqueue.SimpleQueue;
import io.localqueue.bus.BusEvent;
import io.localqueue.bus.EventBus;
import io.localqueue.spring.ContextRunnerTestBase;
import io.localqueue.spring.EventHandler;
import io.localqueue.spring.autoconfigure.LocalQueueAutoConfiguration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.context.LifecycleAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.SmartLifecycle;

/**
 * The event bus stops within Spring's shutdown phase, as the listeners do: its wait is cut to fit the phase (with one
 * warning at start when {@code localqueue.bus.shutdown-timeout} asks for more), it stops on a thread of its own so
 * that Spring's phase timeout holds, and a handler it interrupts hands its delivery back uncounted before Spring
 * stops the next phase.
 */
@ExtendWith(OutputCaptureExtension.class)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class EventBusShutdownTest extends ContextRunnerTestBase {

    @BusEvent(name = "report.requested")
    record ReportRequested(String id) {
    }

    @BusEvent(name = "export.requested")
    record ExportRequested(String id) {
    }

    /** What happened at shutdown, in order. */
    static final class Timeline {
        final List<String> events = new CopyOnWriteArrayList<>();
        final CountDownLatch running = new CountDownLatch(2);
    }

    /** Two handlers, on two subscriptions, that run until they are interrupted. */
    static final class SlowHandlers {
        private final Timeline timeline;

        SlowHandlers(Timeline timeline) {
            this.timeline = timeline;
        }

        @EventHandler
        void report(ReportRequested event) throws InterruptedException {
            runUntilInterrupted("report");
        }

        @EventHandler
        void export(ExportRequested event) throws InterruptedException {
            runUntilInterrupted("export");
        }

        private void runUntilInterrupted(String name) throws InterruptedException {
            timeline.running.countDown();
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException interrupted) {
                timeline.events.add("INTERRUPTED " + name);
                throw interrupted;
            }
        }
    }

    /** A lifecycle bean of an ordinary phase, which Spring stops once the bus's phase is over. */
    static final class NextPhase implements SmartLifecycle {
        private final Timeline timeline;
        private volatile boolean running;

        NextPhase(Timeline timeline) {
            this.timeline = timeline;
        }

        @Override
        public void start() {
            running = true;
        }

        @Override
        public void stop() {
            timeline.events.add("NEXT_PHASE_STOPPED");
            running = false;
        }

        @Override
        public boolean isRunning() {
            return running;
        }

        @Override
        public int getPhase() {
            return 0;
        }
    }

    EventBusShutdownTest() {
        super(LifecycleAutoConfiguration.class, LocalQueueAutoConfiguration.class);
    }

    @Test
    void handlersRunningPastThePhaseAreInterruptedWithinItAndTheirDeliveriesGoBackUncounted(CapturedOutput output) {
        Timeline timeline = new Timeline();
        onTempDir().withPropertyValues("spring.lifecycle.timeout-per-shutdown-phase=5s",
                        "localqueue.bus.shutdown-timeout=60s")
                .withBean(Timeline.class, () -> timeline)
                .withBean(SlowHandlers.class, () -> new SlowHandlers(timeline))
                .withBean(NextPhase.class, () -> new NextPhase(timeline))
                .run(context -> {
                    EventBus bus = context.getBean(EventBus.class);
                    bus.dispatch(new ReportRequested("r-1"));
                    bus.dispatch(new ExportRequested("e-1"));
                    assertThat(timeline.running.await(30, TimeUnit.SECONDS)).as("both handlers run").isTrue();

                    context.close();

                    assertThat(timeline.events).as("both handlers interrupted before the next phase stops")
                            .containsExactlyInAnyOrder("INTERRUPTED report", "INTERRUPTED export",
                                    "NEXT_PHASE_STOPPED")
                            .last().isEqualTo("NEXT_PHASE_STOPPED");
                });
        assertThat(output).contains("Stopping event bus 'default': waiting up to 4s");
        assertThat(occurrences(output.getOut() + output.getErr(), "localqueue.bus.shutdown-timeout"))
                .as("one warning").isEqualTo(1);
        assertThat(output).contains("Event bus 'default' would wait up to 60s for running handlers at shutdown "
                + "(localqueue.bus.shutdown-timeout)").contains("It will wait 4s")
                .contains("raise spring.lifecycle.timeout-per-shutdown-phase to at least 65s");
        for (String subscription : List.of("report.requested", "export.requested")) {
            try (SimpleQueue<Object> queue = SimpleQueue.builder(dir)
                    .name(EventBus.QUEUE_PREFIX + EventBus.DEFAULT_NAME + ":" + subscription).build()) {
                assertThat(queue.stats()).as(subscription).isEqualTo(new QueueStats(1, 0, 0, 0));
                assertThat(queue.getNowait().attempts()).as("the interrupted delivery is not counted").isZero();
            }
        }
    }

    @Test
    void withoutAShutdownTimeoutTheBusWaitsWhatThePhaseAllowsWithoutAWarning(CapturedOutput output) {
        onTempDir().withPropertyValues("spring.lifecycle.timeout-per-shutdown-phase=1m")
                .withBean(Timeline.class, Timeline::new)
                .withBean(SlowHandlers.class, () -> new SlowHandlers(new Timeline()))
                .run(context -> assertThat(context).hasNotFailed());

        assertThat(output).contains("Stopping event bus 'default': waiting up to 55s")
                .doesNotContain("localqueue.bus.shutdown-timeout");
    }

    private static int occurrences(String text, String word) {
        int count = 0;
        for (int at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
            count++;
        }
        return count;
    }
}
