package io.localqueue.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.LocalQueueDatabase;
import io.localqueue.bus.BusEvent;
import io.localqueue.spring.ContextRunnerTestBase;
import io.localqueue.spring.EventHandler;
import io.localqueue.spring.QueueListener;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/** The start logs one INFO line saying where the queues are, which listeners consume which queues, and the bus. */
@ExtendWith(OutputCaptureExtension.class)
class StartupSummaryTest extends ContextRunnerTestBase {

    @BusEvent(name = "user.created")
    record UserCreated(String userId) {
    }

    static class Listeners {
        @QueueListener(queue = "emails")
        void send(String email) {
        }

        @QueueListener(queue = "emails", id = "second-sender")
        void sendToo(String email) {
        }

        @QueueListener(queue = "invoices")
        void render(String invoice) {
        }

        @EventHandler
        void welcome(UserCreated event) {
        }
    }

    @Test
    void oneLineSaysTheFileTheListenersAndTheBus(CapturedOutput output) {
        onTempDir().withBean(Listeners.class, Listeners::new).run(context -> {
            assertThat(context).hasNotFailed();
            String file = context.getBean(LocalQueueDatabase.class).file().toString();

            assertThat(output).contains("localqueue started: queues in " + file + " (SQLite "
                    + context.getBean(LocalQueueDatabase.class).engineVersion() + "); 3 @QueueListener methods on "
                    + "queues emails, invoices; event bus 'default' consuming user.created");
        });
        assertThat(output.toString().split("localqueue started", -1)).as("one line").hasSize(2);
    }

    @Test
    void withoutListenersOrBusTheLineSaysSo(CapturedOutput output) {
        onTempDir().withPropertyValues("localqueue.bus.enabled=false").run(context -> assertThat(output)
                .contains("; no @QueueListener methods; no event bus (localqueue.bus.enabled=false)"));
        onTempDir().withPropertyValues("localqueue.bus.auto-startup=false").withBean(Listeners.class, Listeners::new)
                .run(context -> assertThat(output).contains("event bus 'default' not consuming "
                        + "(localqueue.bus.auto-startup=false)"));
    }
}
