package io.localqueue.spring.autoconfigure;

import static io.localqueue.spring.autoconfigure.PropertyChecks.apply;

import io.localqueue.DeliveryPolicy;
import io.localqueue.DurabilityMode;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.spring.LocalQueueProperties;
import io.localqueue.spring.LocalQueueRegistry;
import io.localqueue.spring.LocalQueueTemplate;
import io.localqueue.spring.QueueSettings;
import java.time.Duration;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;

@Configuration(proxyBeanMethods = false)
class LocalQueueDatabaseConfiguration {

    @Bean
    @ConditionalOnMissingBean
    DeliveryPolicy localQueueDeliveryPolicy(LocalQueueProperties properties) {
        LocalQueueProperties.Delivery delivery = properties.getDelivery();
        DeliveryPolicy withLease = apply("localqueue.delivery.lease", delivery.getLease(),
                () -> DeliveryPolicy.defaults().withLease(delivery.getLease()));
        return apply("localqueue.delivery.max-retries", delivery.getMaxRetries(),
                () -> withLease.withMaxRetries(delivery.getMaxRetries()));
    }

    @Bean
    @ConditionalOnMissingBean
    DurabilityMode localQueueDurabilityMode(LocalQueueProperties properties) {
        return properties.getDurability();
    }

    @Bean
    @ConditionalOnMissingBean
    QueueSettings localQueueSettings(LocalQueueProperties properties, DeliveryPolicy delivery,
                                     DurabilityMode durability) {
        Duration maxWait = properties.getProducer().getMaxWait();
        QueueSettings settings = apply("localqueue.producer.max-wait", maxWait,
                () -> QueueSettings.of(delivery, durability).withProducerMaxWait(maxWait));
        for (Map.Entry<String, LocalQueueProperties.Queue> queue : properties.getQueues().entrySet()) {
            settings = withQueue(settings, queue.getKey(), queue.getValue());
        }
        return settings;
    }

    /** Adds one queue's overrides, one property at a time, so that a refusal names the property. */
    private static QueueSettings withQueue(QueueSettings settings, String name, LocalQueueProperties.Queue queue) {
        String prefix = "localqueue.queues." + name + ".";
        Duration lease = queue.getDelivery().getLease();
        Integer maxRetries = queue.getDelivery().getMaxRetries();
        Long maxPendingJobs = queue.getMaxPendingJobs();
        Duration maxWait = queue.getProducer().getMaxWait();
        QueueSettings leased = apply(prefix + "delivery.lease", lease,
                () -> settings.withQueue(name, lease, null, null));
        QueueSettings retried = apply(prefix + "delivery.max-retries", maxRetries,
                () -> leased.withQueue(name, null, maxRetries, null));
        QueueSettings limited = apply(prefix + "max-pending-jobs", maxPendingJobs,
                () -> retried.withQueue(name, null, null, maxPendingJobs));
        return maxWait == null ? limited : apply(prefix + "producer.max-wait", maxWait,
                () -> limited.withProducerMaxWait(name, maxWait));
    }

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    @ConditionalOnMissingBean
    static SqliteVersionCheck localQueueSqliteVersionCheck(ObjectProvider<LocalQueueProperties> properties) {
        return new SqliteVersionCheck(properties, LocalQueueDatabase::sqliteVersion);
    }

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    LocalQueueDatabase localQueueDatabase(LocalQueueProperties properties) {
        return LocalQueueDatabase.open(properties.getPath());
    }

    @Bean
    @ConditionalOnMissingBean
    LocalQueueRegistry localQueueRegistry(LocalQueueDatabase database, QueueSettings settings) {
        return new LocalQueueRegistry(database, settings);
    }

    @Bean
    @ConditionalOnMissingBean
    LocalQueueTemplate localQueueTemplate(LocalQueueRegistry queues) {
        return new LocalQueueTemplate(queues);
    }
}
