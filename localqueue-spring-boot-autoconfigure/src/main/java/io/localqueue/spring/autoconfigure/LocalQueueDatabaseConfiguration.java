package io.localqueue.spring.autoconfigure;

import static io.localqueue.spring.PropertyChecks.apply;

import io.localqueue.DeliveryPolicy;
import io.localqueue.DurabilityMode;
import io.localqueue.JsonSerializer;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.bus.EventBus;
import io.localqueue.spring.EnqueueInterceptor;
import io.localqueue.spring.LocalQueueDataSource;
import io.localqueue.spring.LocalQueueProperties;
import io.localqueue.spring.LocalQueueRegistry;
import io.localqueue.spring.LocalQueueTemplate;
import io.localqueue.spring.ObservedQueues;
import io.localqueue.spring.PayloadSerializers;
import io.localqueue.spring.QueueSettings;
import io.localqueue.spring.RetryBackoff;
import io.localqueue.spring.listener.QueueListenerEndpointRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;
import tools.jackson.databind.json.JsonMapper;

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
        QueueSettings waiting = apply("localqueue.producer.max-wait", maxWait,
                () -> QueueSettings.of(delivery, durability).withProducerMaxWait(maxWait));
        LocalQueueProperties.Backoff backoff = properties.getDelivery().getBackoff();
        QueueSettings backedOff = waiting.withBackoff(backoff("localqueue.delivery.backoff.", RetryBackoff.DEFAULT,
                backoff.getInitialDelay(), backoff.getMultiplier(), backoff.getMaxDelay(), backoff.isJitter()));
        LocalQueueProperties.Retention retention = properties.getRetention();
        QueueSettings.Retention acked = apply("localqueue.retention.acked", retention.getAcked(),
                () -> new QueueSettings.Retention(retention.getAcked(), null));
        QueueSettings settings = apply("localqueue.retention.failed", retention.getFailed(),
                () -> backedOff.withRetention(new QueueSettings.Retention(acked.acked(), retention.getFailed())));
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
        QueueSettings waited = maxWait == null ? limited : apply(prefix + "producer.max-wait", maxWait,
                () -> limited.withProducerMaxWait(name, maxWait));
        Duration ackedKept = queue.getRetention().getAcked();
        Duration failedKept = queue.getRetention().getFailed();
        QueueSettings ackedSet = ackedKept == null ? waited : apply(prefix + "retention.acked", ackedKept,
                () -> waited.withRetention(name, ackedKept, null));
        QueueSettings waiting = failedKept == null ? ackedSet : apply(prefix + "retention.failed", failedKept,
                () -> ackedSet.withRetention(name, null, failedKept));
        QueueSettings controlled = withControls(waiting, name, queue, prefix);
        LocalQueueProperties.BackoffOverride backoff = queue.getDelivery().getBackoff();
        if (backoff.getInitialDelay() == null && backoff.getMultiplier() == null && backoff.getMaxDelay() == null
                && backoff.getJitter() == null) {
            return controlled;
        }
        return controlled.withBackoff(name, backoff(prefix + "delivery.backoff.", controlled.backoffFor(name),
                backoff.getInitialDelay(), backoff.getMultiplier(), backoff.getMaxDelay(), backoff.getJitter()));
    }

    /** Adds one queue's limits and concurrency key, one property at a time, so that a refusal names the property. */
    private static QueueSettings withControls(QueueSettings settings, String name, LocalQueueProperties.Queue queue,
                                              String prefix) {
        Integer maxConcurrent = queue.getMaxConcurrent();
        Integer perKey = queue.getMaxConcurrentPerKey();
        QueueSettings limited = apply(prefix + "max-concurrent", maxConcurrent,
                () -> settings.withLimits(name, maxConcurrent, null));
        QueueSettings keyLimited = apply(prefix + "max-concurrent-per-key", perKey,
                () -> limited.withLimits(name, null, perKey));
        Integer permits = queue.getRateLimit().getPermits();
        Duration period = queue.getRateLimit().getPeriod();
        QueueSettings rated = keyLimited;
        if (permits == null && period != null) {
            throw new InvalidConfigurationPropertyValueException(prefix + "rate-limit.permits", null,
                    "rate-limit.period is set, but not the permits it counts");
        }
        if (permits != null) {
            boolean badPermits = permits < 0;
            rated = apply(prefix + (badPermits ? "rate-limit.permits" : "rate-limit.period"),
                    badPermits ? permits : period, () -> keyLimited.withRateLimit(name, permits, period));
        }
        String key = queue.getConcurrencyKey();
        QueueSettings finalRated = rated;
        return key == null ? rated : apply(prefix + "concurrency-key", key,
                () -> finalRated.withConcurrencyKey(name, key));
    }

    /** Builds a backoff over {@code base}, one component at a time, so that a refusal names its property. */
    static RetryBackoff backoff(String prefix, RetryBackoff base, @Nullable Duration initialDelay,
                                        @Nullable Double multiplier, @Nullable Duration maxDelay,
                                        @Nullable Boolean jitter) {
        RetryBackoff started = apply(prefix + "initial-delay", initialDelay,
                () -> base.with(initialDelay, null, maxDelayAtLeast(base.maxDelay(), initialDelay), null));
        RetryBackoff grown = apply(prefix + "multiplier", multiplier, () -> started.with(null, multiplier, null, null));
        RetryBackoff capped = apply(prefix + "max-delay", maxDelay, () -> grown.with(null, null, maxDelay, null));
        return capped.with(null, null, null, jitter);
    }

    /** Keeps the cap until max-delay is applied, raised to a new initial delay that exceeds it. */
    private static Duration maxDelayAtLeast(Duration maxDelay, @Nullable Duration initialDelay) {
        return initialDelay != null && !initialDelay.isNegative() && initialDelay.compareTo(maxDelay) > 0
                ? initialDelay : maxDelay;
    }

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    @ConditionalOnMissingBean
    static SqliteVersionCheck localQueueSqliteVersionCheck(ObjectProvider<LocalQueueProperties> properties) {
        return new SqliteVersionCheck(properties, LocalQueueDatabase::sqliteVersion);
    }

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    LocalQueueDatabase localQueueDatabase(LocalQueueProperties properties,
                                          @LocalQueueDataSource ObjectProvider<DataSource> marked) {
        return LocalQueueStoreOpening.open(properties, marked.getIfAvailable());
    }

    @Bean
    @ConditionalOnMissingBean
    LocalQueueRegistry localQueueRegistry(LocalQueueDatabase database, QueueSettings settings,
                                          PayloadSerializers serializers, ObjectProvider<Clock> clock) {
        return new LocalQueueRegistry(database, settings, serializers, clock.getIfUnique(Clock::systemUTC));
    }

    @Bean
    @ConditionalOnMissingBean
    ObservedQueues localQueueObservedQueues(LocalQueueRegistry queues, LocalQueueProperties properties) {
        Duration maxAge = properties.getActuator().getMaxAge();
        return apply("localqueue.actuator.max-age", maxAge, () -> new ObservedQueues(queues, maxAge));
    }

    /**
     * JSON through the application's mapper (spring.jackson.* applies), given the Python library's spelling unless
     * localqueue.json.python-spelling is false; localqueue's own mapper without one or when told so.
     */
    @Bean
    @ConditionalOnMissingBean
    PayloadSerializers localQueuePayloadSerializers(LocalQueueProperties properties,
                                                    ObjectProvider<JsonMapper> applicationMapper) {
        LocalQueueProperties.Json json = properties.getJson();
        JsonMapper mapper = applicationMapper(properties, applicationMapper);
        if (mapper == null) {
            return PayloadSerializers.json();
        }
        return PayloadSerializers.json(json.isPythonSpelling() ? JsonSerializer.withPythonSpelling(mapper) : mapper);
    }

    /** The application's mapper when {@code localqueue.json.application-mapper} asks for it and there is one. */
    static @Nullable JsonMapper applicationMapper(LocalQueueProperties properties,
                                                  ObjectProvider<JsonMapper> applicationMapper) {
        return properties.getJson().isApplicationMapper() ? applicationMapper.getIfUnique() : null;
    }

    @Bean
    @ConditionalOnMissingBean
    StartupSummary localQueueStartupSummary(ObjectProvider<LocalQueueDatabase> database,
                                            ObjectProvider<QueueListenerEndpointRegistry> listeners,
                                            ObjectProvider<EventBus> bus, LocalQueueProperties properties) {
        return new StartupSummary(database, listeners, bus, properties.getBus().isAutoStartup());
    }

    @Bean
    @ConditionalOnMissingBean
    LocalQueueTemplate localQueueTemplate(LocalQueueRegistry queues, LocalQueueProperties properties,
                                          ObjectProvider<EnqueueInterceptor> interceptors) {
        LocalQueueTemplate template = new LocalQueueTemplate(queues, properties.getProducer().isTransactionAware());
        template.setEnqueueInterceptor(EnqueueInterceptor.of(interceptors.orderedStream().toList()));
        return template;
    }
}
