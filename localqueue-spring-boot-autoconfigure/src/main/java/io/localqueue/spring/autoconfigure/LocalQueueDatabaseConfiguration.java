package io.localqueue.spring.autoconfigure;

import io.localqueue.DeliveryPolicy;
import io.localqueue.DurabilityMode;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.spring.LocalQueueProperties;
import io.localqueue.spring.LocalQueueRegistry;
import io.localqueue.spring.LocalQueueTemplate;
import io.localqueue.spring.QueueSettings;
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
        return new DeliveryPolicy(properties.getDelivery().getLease(), properties.getDelivery().getMaxRetries());
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
        QueueSettings settings = QueueSettings.of(delivery, durability);
        for (Map.Entry<String, LocalQueueProperties.Queue> queue : properties.getQueues().entrySet()) {
            LocalQueueProperties.Queue configured = queue.getValue();
            settings = settings.withQueue(queue.getKey(), configured.getDelivery().getLease(),
                    configured.getDelivery().getMaxRetries(), configured.getMaxPendingJobs());
        }
        return settings;
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
