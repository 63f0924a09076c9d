package io.localqueue.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.localqueue.DeliveryPolicy;
import io.localqueue.DurabilityMode;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.QueueFullException;
import io.localqueue.QueueStats;
import io.localqueue.SimpleQueue;
import io.localqueue.spring.ContextRunnerTestBase;
import io.localqueue.spring.LocalQueueProperties;
import io.localqueue.spring.LocalQueueRegistry;
import io.localqueue.spring.LocalQueueTemplate;
import io.localqueue.spring.QueueListener;
import io.localqueue.spring.QueueSettings;
import io.localqueue.spring.listener.DefaultQueueListenerContainerFactory;
import io.localqueue.spring.listener.QueueListenerAnnotationBeanPostProcessor;
import io.localqueue.spring.listener.QueueListenerContainerFactory;
import io.localqueue.spring.listener.QueueListenerEndpointRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

class LocalQueueAutoConfigurationTest extends ContextRunnerTestBase {

    @Test
    void defaultBeansArePresent() {
        onTempDir().run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).getBean(DeliveryPolicy.class).isEqualTo(DeliveryPolicy.defaults());
            assertThat(context.getBean(DeliveryPolicy.class).lease()).isEqualTo(Duration.ofSeconds(60));
            assertThat(context.getBean(DeliveryPolicy.class).maxRetries()).isEqualTo(3);
            assertThat(context).getBean(DurabilityMode.class).isEqualTo(DurabilityMode.RELAXED);
            assertThat(context).hasSingleBean(LocalQueueDatabase.class);
            assertThat(context.getBean(LocalQueueDatabase.class).path()).isEqualTo(dir);
            assertThat(context).hasSingleBean(LocalQueueRegistry.class);
            assertThat(context).hasSingleBean(LocalQueueTemplate.class);
            assertThat(context).hasSingleBean(QueueListenerContainerFactory.class);
            assertThat(context).getBean("localQueueListenerContainerFactory")
                    .isInstanceOf(DefaultQueueListenerContainerFactory.class);
            assertThat(context).hasSingleBean(QueueListenerEndpointRegistry.class);
            assertThat(context).hasSingleBean(QueueListenerAnnotationBeanPostProcessor.class);
            assertThat(context).doesNotHaveBean(DataSource.class);
        });
    }

    @Test
    void defaultPathIsTheDataDirectory() {
        runner.withBean(LocalQueueDatabase.class, () -> LocalQueueDatabase.open(dir)).run(context ->
                assertThat(context.getBean(LocalQueueProperties.class).getPath())
                        .isEqualTo(Path.of(LocalQueueDatabase.DEFAULT_DIRECTORY)));
    }

    @Test
    void databaseFileIsCreatedAtTheConfiguredPath() {
        Path nested = dir.resolve("nested").resolve("queues");
        runner.withPropertyValues("localqueue.path=" + nested).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(nested.resolve(LocalQueueDatabase.FILE_NAME)).isRegularFile();
            assertThat(context.getBean(LocalQueueDatabase.class).file())
                    .isEqualTo(nested.resolve(LocalQueueDatabase.FILE_NAME).toRealPath());
        });
    }

    @Test
    void queuesRunOnTheApplicationsOnlyClockBean() {
        Clock fixed = Clock.fixed(Instant.parse("2030-01-01T00:00:00Z"), ZoneOffset.UTC);
        onTempDir().withBean(Clock.class, () -> fixed).run(context -> {
            LocalQueueRegistry queues = context.getBean(LocalQueueRegistry.class);
            context.getBean(LocalQueueTemplate.class).put("stamped", "job");

            assertThat(queues.clock()).isSameAs(fixed);
            assertThat(queues.queue("stamped").listReady(1, 0).get(0).createdAt()).isEqualTo(fixed.instant());
        });
    }

    @Test
    void queuesStayOnTheSystemClockWhenTheApplicationHasNoSingleClock() {
        Clock one = Clock.fixed(Instant.parse("2030-01-01T00:00:00Z"), ZoneOffset.UTC);
        Clock two = Clock.offset(one, Duration.ofHours(1));
        onTempDir().withBean("one", Clock.class, () -> one).withBean("two", Clock.class, () -> two).run(context ->
                assertThat(context.getBean(LocalQueueRegistry.class).clock()).isEqualTo(Clock.systemUTC()));
    }

    @Test
    void durabilityAndDeliveryPropertiesBind() {
        onTempDir().withPropertyValues("localqueue.durability=durable", "localqueue.delivery.lease=5s",
                "localqueue.delivery.max-retries=7").run(context -> {
            assertThat(context).getBean(DurabilityMode.class).isEqualTo(DurabilityMode.DURABLE);
            assertThat(context).getBean(DeliveryPolicy.class)
                    .isEqualTo(new DeliveryPolicy(Duration.ofSeconds(5), 7));
            SimpleQueue<Object> queue = context.getBean(LocalQueueRegistry.class).queue("anything");
            assertThat(queue.delivery()).isEqualTo(new DeliveryPolicy(Duration.ofSeconds(5), 7));
            assertThat(queue.durability()).isEqualTo(DurabilityMode.DURABLE);
            assertThat(queue.maxPendingJobs()).isEmpty();
        });
    }

    @Test
    void retentionIsSevenDaysForAcknowledgedJobsByDefaultAndSetForAllQueuesOrOne() {
        onTempDir().run(context -> assertThat(context.getBean(LocalQueueRegistry.class).settings()
                .retentionFor("any")).isEqualTo(new QueueSettings.Retention(Duration.ofDays(7), null)));
        onTempDir().withPropertyValues("localqueue.retention.acked=1d", "localqueue.retention.failed=30d",
                "localqueue.queues.emails.retention.acked=2h", "localqueue.queues.audit.retention.failed=365d")
                .run(context -> {
                    QueueSettings settings = context.getBean(LocalQueueRegistry.class).settings();
                    assertThat(settings.retentionFor("emails"))
                            .isEqualTo(new QueueSettings.Retention(Duration.ofHours(2), Duration.ofDays(30)));
                    assertThat(settings.retentionFor("audit"))
                            .isEqualTo(new QueueSettings.Retention(Duration.ofDays(1), Duration.ofDays(365)));
                    assertThat(settings.retentionFor("other"))
                            .isEqualTo(new QueueSettings.Retention(Duration.ofDays(1), Duration.ofDays(30)));
                });
    }

    @Test
    void perQueueSettingsOverrideTheGlobalDelivery() {
        onTempDir().withPropertyValues("localqueue.delivery.lease=5s", "localqueue.delivery.max-retries=7",
                "localqueue.queues.emails.max-pending-jobs=2", "localqueue.queues.emails.delivery.lease=2s",
                "localqueue.queues.reports.delivery.max-retries=1").run(context -> {
            LocalQueueRegistry registry = context.getBean(LocalQueueRegistry.class);
            QueueSettings settings = registry.settings();
            assertThat(settings.deliveryFor("emails")).isEqualTo(new DeliveryPolicy(Duration.ofSeconds(2), 7));
            assertThat(settings.deliveryFor("reports")).isEqualTo(new DeliveryPolicy(Duration.ofSeconds(5), 1));
            assertThat(settings.deliveryFor("other")).isEqualTo(new DeliveryPolicy(Duration.ofSeconds(5), 7));
            assertThat(settings.maxPendingJobsFor("emails")).hasValue(2L);
            assertThat(settings.maxPendingJobsFor("reports")).isEmpty();

            SimpleQueue<Object> emails = registry.queue("emails");
            assertThat(emails.delivery()).isEqualTo(new DeliveryPolicy(Duration.ofSeconds(2), 7));
            assertThat(emails.maxPendingJobs()).isEqualTo(OptionalLong.of(2));
            assertThat(registry.queue("reports").delivery()).isEqualTo(new DeliveryPolicy(Duration.ofSeconds(5), 1));
            assertThat(registry.queue("reports").maxPendingJobs()).isEmpty();
            assertThat(registry.queueNames()).contains("emails", "reports");

            LocalQueueTemplate template = context.getBean(LocalQueueTemplate.class);
            template.put("emails", "one");
            template.put("emails", "two");
            assertThatThrownBy(() -> template.put("emails", "three", null, Duration.ZERO))
                    .isInstanceOf(QueueFullException.class);
        });
    }

    @Test
    void listenerActuatorAndHealthPropertiesBind() {
        onTempDir().withPropertyValues("localqueue.listener.concurrency=3", "localqueue.listener.poll-interval=250ms",
                "localqueue.listener.heartbeat-interval=2s", "localqueue.listener.auto-startup=false",
                "localqueue.listener.shutdown-timeout=5s",
                "localqueue.health.integrity-check-interval=1m").run(context -> {
            LocalQueueProperties properties = context.getBean(LocalQueueProperties.class);
            assertThat(properties.getListener().getConcurrency()).isEqualTo(3);
            assertThat(properties.getListener().getPollInterval()).isEqualTo(Duration.ofMillis(250));
            assertThat(properties.getListener().getHeartbeatInterval()).isEqualTo(Duration.ofSeconds(2));
            assertThat(properties.getListener().isAutoStartup()).isFalse();
            assertThat(properties.getListener().getShutdownTimeout()).isEqualTo(Duration.ofSeconds(5));
            assertThat(properties.getHealth().getIntegrityCheckInterval()).isEqualTo(Duration.ofMinutes(1));
        });
    }

    @Test
    void listenerPropertiesHaveTheirDocumentedDefaults() {
        onTempDir().run(context -> {
            LocalQueueProperties properties = context.getBean(LocalQueueProperties.class);
            assertThat(properties.getListener().getConcurrency()).isEqualTo(1);
            assertThat(properties.getListener().getHeartbeatInterval()).isNull();
            assertThat(properties.getListener().isAutoStartup()).isTrue();
        });
    }

    @Test
    void backsOffWhenUserDefinesDeliveryPolicy() {
        DeliveryPolicy mine = new DeliveryPolicy(Duration.ofSeconds(9), 1);
        onTempDir().withPropertyValues("localqueue.delivery.lease=5s")
                .withBean("myPolicy", DeliveryPolicy.class, () -> mine).run(context -> {
                    assertThat(context).hasSingleBean(DeliveryPolicy.class);
                    assertThat(context).getBean(DeliveryPolicy.class).isSameAs(mine);
                    assertThat(context.getBean(LocalQueueRegistry.class).queue("q").delivery()).isEqualTo(mine);
                });
    }

    @Test
    void backsOffWhenUserDefinesDurabilityMode() {
        onTempDir().withBean("myDurability", DurabilityMode.class, () -> DurabilityMode.DURABLE).run(context -> {
            assertThat(context).hasSingleBean(DurabilityMode.class);
            assertThat(context.getBean(LocalQueueRegistry.class).queue("q").durability())
                    .isEqualTo(DurabilityMode.DURABLE);
        });
    }

    @Test
    void backsOffWhenUserDefinesDatabase() {
        Path elsewhere = dir.resolve("elsewhere");
        Path configured = dir.resolve("configured");
        runner.withPropertyValues("localqueue.path=" + configured)
                .withBean("myDatabase", LocalQueueDatabase.class, () -> LocalQueueDatabase.open(elsewhere))
                .run(context -> {
                    assertThat(context).hasSingleBean(LocalQueueDatabase.class);
                    LocalQueueDatabase database = context.getBean(LocalQueueDatabase.class);
                    assertThat(database.path()).isEqualTo(elsewhere);
                    assertThat(context.getBean(LocalQueueRegistry.class).database()).isSameAs(database);
                    context.getBean(LocalQueueTemplate.class).put("q", "x");
                    assertThat(elsewhere.resolve(LocalQueueDatabase.FILE_NAME)).isRegularFile();
                    assertThat(configured).doesNotExist();
                });
    }

    @Test
    void backsOffWhenUserDefinesRegistry() {
        onTempDir().withUserConfiguration(UserRegistry.class).run(context -> {
            assertThat(context).hasSingleBean(LocalQueueRegistry.class);
            assertThat(context).getBean(LocalQueueRegistry.class).isInstanceOf(CountingRegistry.class);
            context.getBean(LocalQueueTemplate.class).put("q", "x");
            assertThat(context.getBean(CountingRegistry.class).opened).contains("q");
        });
    }

    @Test
    void backsOffWhenUserDefinesTemplate() {
        onTempDir().withUserConfiguration(UserTemplate.class).run(context -> {
            assertThat(context).hasSingleBean(LocalQueueTemplate.class);
            assertThat(context).getBean(LocalQueueTemplate.class).isInstanceOf(AuditingTemplate.class);
        });
    }

    @Test
    void backsOffWhenUserDefinesTheDefaultContainerFactory() {
        onTempDir().withUserConfiguration(UserContainerFactory.class)
                .withBean("mailer", Mailer.class, Mailer::new).run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).hasSingleBean(QueueListenerContainerFactory.class);
                    assertThat(context).getBean("localQueueListenerContainerFactory")
                            .isInstanceOf(RecordingFactory.class);
                    assertThat(context.getBean(RecordingFactory.class).created).containsExactly("mailer.send");
                });
    }

    @Test
    void backsOffWhenUserDefinesEndpointRegistry() {
        onTempDir().withUserConfiguration(UserEndpointRegistry.class).run(context -> {
            assertThat(context).hasSingleBean(QueueListenerEndpointRegistry.class);
            assertThat(context).getBean(QueueListenerEndpointRegistry.class)
                    .isSameAs(context.getBean(UserEndpointRegistry.class).mine);
        });
    }

    @Test
    void applicationDataSourceStaysTheOnlyDataSourceAndLocalqueueUsesItsOwnFile() {
        onTempDir().withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
                        JdbcTemplateAutoConfiguration.class))
                .withPropertyValues("spring.datasource.url=jdbc:h2:mem:lq-app;DB_CLOSE_DELAY=-1",
                        "spring.datasource.username=sa")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).hasSingleBean(DataSource.class);
                    try (Connection connection = context.getBean(DataSource.class).getConnection()) {
                        assertThat(connection.getMetaData().getURL()).startsWith("jdbc:h2:mem:lq-app");
                    }
                    JdbcTemplate jdbc = context.getBean(JdbcTemplate.class);
                    jdbc.execute("CREATE TABLE customer (id INT PRIMARY KEY, name VARCHAR(20))");
                    jdbc.update("INSERT INTO customer VALUES (1, 'Ada')");
                    assertThat(jdbc.queryForObject("SELECT name FROM customer WHERE id = 1", String.class))
                            .isEqualTo("Ada");

                    LocalQueueTemplate template = context.getBean(LocalQueueTemplate.class);
                    template.put("emails", "hello");
                    assertThat(template.stats("emails")).isEqualTo(new QueueStats(1, 0, 0, 0));
                    assertThat(dir.resolve(LocalQueueDatabase.FILE_NAME)).isRegularFile();
                    assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLES "
                            + "WHERE UPPER(TABLE_NAME) = 'MESSAGES'", Integer.class)).isZero();
                });
    }

    @Test
    void closingTheContextClosesTheDatabase() throws Exception {
        LocalQueueDatabase[] captured = new LocalQueueDatabase[1];
        onTempDir().run(context -> {
            captured[0] = context.getBean(LocalQueueDatabase.class);
            context.getBean(LocalQueueTemplate.class).put("kept", "survives the context");
        });

        assertThat(captured[0].isClosed()).isTrue();
        Path file = dir.resolve(LocalQueueDatabase.FILE_NAME);
        // Leaving WAL mode needs the only connection to the file: none may be left open by the closed context.
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
             Statement statement = connection.createStatement();
             ResultSet mode = statement.executeQuery("PRAGMA journal_mode=DELETE")) {
            assertThat(mode.next()).isTrue();
            assertThat(mode.getString(1)).isEqualToIgnoringCase("delete");
        }
        assertThat(Files.exists(dir.resolve(LocalQueueDatabase.FILE_NAME + "-wal"))).isFalse();
        try (SimpleQueue<Object> reopened = SimpleQueue.builder(dir).name("kept").build()) {
            assertThat(reopened.stats()).isEqualTo(new QueueStats(1, 0, 0, 0));
            assertThat(reopened.getNowait().data()).isEqualTo("survives the context");
        }
    }

    @Test
    void contextCanBeStartedTwiceOnTheSameFile() {
        onTempDir().run(context -> context.getBean(LocalQueueTemplate.class).put("q", "first"));
        onTempDir().run(context ->
                assertThat(context.getBean(LocalQueueTemplate.class).stats("q")).isEqualTo(new QueueStats(1, 0, 0, 0)));
    }

    // ---------------------------------------------------------------- user configurations

    static class CountingRegistry extends LocalQueueRegistry {
        final List<String> opened = new CopyOnWriteArrayList<>();

        CountingRegistry(LocalQueueDatabase database, QueueSettings settings) {
            super(database, settings);
        }

        @Override
        public <T> SimpleQueue<T> queue(String name, Class<T> type) {
            opened.add(name);
            return super.queue(name, type);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class UserRegistry {
        @Bean
        CountingRegistry myRegistry(LocalQueueDatabase database, QueueSettings settings) {
            return new CountingRegistry(database, settings);
        }
    }

    static class AuditingTemplate extends LocalQueueTemplate {
        AuditingTemplate(LocalQueueRegistry queues) {
            super(queues);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class UserTemplate {
        @Bean
        AuditingTemplate myTemplate(LocalQueueRegistry queues) {
            return new AuditingTemplate(queues);
        }
    }

    static class RecordingFactory extends DefaultQueueListenerContainerFactory {
        final List<String> created = new CopyOnWriteArrayList<>();

        RecordingFactory(LocalQueueRegistry queues, QueueListenerContainerFactoryConfigurer configurer) {
            super(queues);
            configurer.configure(this);
        }

        @Override
        public io.localqueue.spring.listener.QueueListenerContainer createContainer(
                io.localqueue.spring.listener.QueueListenerEndpoint endpoint) {
            created.add(endpoint.id());
            return super.createContainer(endpoint);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class UserContainerFactory {
        @Bean
        RecordingFactory localQueueListenerContainerFactory(LocalQueueRegistry queues,
                                                            QueueListenerContainerFactoryConfigurer configurer) {
            return new RecordingFactory(queues, configurer);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class UserEndpointRegistry {
        QueueListenerEndpointRegistry mine;

        @Bean
        QueueListenerEndpointRegistry myEndpointRegistry(QueueListenerAnnotationBeanPostProcessor collector,
                                                         BeanFactory beanFactory, LocalQueueRegistry queues) {
            mine = new QueueListenerEndpointRegistry(collector, beanFactory,
                    new DefaultQueueListenerContainerFactory(queues));
            return mine;
        }
    }

    static class Mailer {
        @QueueListener(queue = "mail")
        void send(String message) {
        }
    }
}
