package io.localqueue.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.localqueue.QueueStats;
import io.localqueue.spring.ContextRunnerTestBase;
import io.localqueue.spring.LocalQueueTemplate;
import io.localqueue.spring.QueueListener;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

class QueueListenerSmokeTest extends ContextRunnerTestBase {

    @Test
    void listenerReceivesWhatTheTemplatePuts() {
        onTempDir().withUserConfiguration(Listeners.class).run(context -> {
            LocalQueueTemplate template = context.getBean(LocalQueueTemplate.class);
            template.put("emails", new Email("a@example.com"));
            template.put("emails", new Email("b@example.com"));
            Listeners listeners = context.getBean(Listeners.class);
            await().atMost(Duration.ofSeconds(10)).until(() -> listeners.received.size() == 2);
            assertThat(listeners.received).extracting(Email::to).containsExactly("a@example.com", "b@example.com");
            await().atMost(Duration.ofSeconds(10)).until(() -> template.stats("emails").equals(new QueueStats(0, 0, 2, 0)));
        });
    }

    record Email(String to) {
    }

    @Configuration(proxyBeanMethods = false)
    static class Listeners {
        final List<Email> received = new CopyOnWriteArrayList<>();

        @Bean
        String marker() {
            return "x";
        }

        @QueueListener(queue = "emails")
        void handle(Email email) {
            received.add(email);
        }
    }
}
