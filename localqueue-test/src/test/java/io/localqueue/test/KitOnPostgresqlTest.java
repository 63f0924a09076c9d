package io.localqueue.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.localqueue.JobOutcome;
import io.localqueue.internal.store.postgresql.PostgresServer;
import io.localqueue.spring.LocalQueueRegistry;
import io.localqueue.spring.LocalQueueTemplate;
import io.localqueue.test.Mailer.Mail;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The kit on an application whose queues are kept in PostgreSQL: the store stays the configured one, the kit's
 * drains and clock work on it, and the kit's directory, which the server does not use, is refused by name.
 */
@SpringBootTest(classes = KitTestApplication.class, properties = "localqueue.listener.poll-interval=100ms")
@AutoConfigureLocalQueue
class KitOnPostgresqlTest {

    @Autowired
    LocalQueueTemplate queues;

    @Autowired
    LocalQueueTestSupport localQueue;

    @Autowired
    LocalQueueRegistry registry;

    @DynamicPropertySource
    static void keepTheQueuesInPostgresql(DynamicPropertyRegistry properties) {
        properties.add("localqueue.store", () -> "postgresql");
        properties.add("localqueue.postgresql.url", PostgresServer::url);
        properties.add("localqueue.postgresql.schema", PostgresServer::freshSchema);
    }

    @Test
    void drainsRunOnTheServerAndTheDirectoryIsRefusedByName() {
        queues.put(Mailer.QUEUE, new Mail("a@example.com", "one"));

        assertThat(localQueue.drain(Mailer.QUEUE, Duration.ofSeconds(10))).extracting(HandledJob::outcome)
                .containsExactly(JobOutcome.ACKED);
        assertThat(registry.database().isFile()).isFalse();
        assertThatThrownBy(localQueue::directory).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("PostgreSQL").hasMessageContaining("localqueue.store=postgresql")
                .hasMessageContaining("localqueue.postgresql.schema");
    }
}
