package io.localqueue.spring.autoconfigure;

import io.localqueue.SimpleQueue;
import io.localqueue.spring.LocalQueueProperties;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Import;

/**
 * Auto-configuration of localqueue: the shared database on its own SQLite pool (never the application's
 * {@code DataSource}), the delivery and durability defaults, the queue registry, the {@code LocalQueueTemplate},
 * the {@code @QueueListener} machinery and the event bus; each bean backs off when the application defines its own.
 *
 * @since 0.1.0
 */
@AutoConfiguration(afterName = "org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration")
@ConditionalOnClass(SimpleQueue.class)
@EnableConfigurationProperties(LocalQueueProperties.class)
@Import({LocalQueueDatabaseConfiguration.class, QueueListenerConfiguration.class, LocalQueueBusConfiguration.class,
        LocalQueueBusDisabledConfiguration.class})
public final class LocalQueueAutoConfiguration {
}
