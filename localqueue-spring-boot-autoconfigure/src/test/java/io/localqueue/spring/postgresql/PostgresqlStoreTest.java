package io.localqueue.spring.postgresql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.QueueStats;
import io.localqueue.bus.EventBus;
import io.localqueue.internal.store.postgresql.PostgresServer;
import io.localqueue.spring.ContextRunnerTestBase;
import io.localqueue.spring.EventHandler;
import io.localqueue.spring.LocalQueueDataSource;
import io.localqueue.spring.LocalQueueTemplate;
import io.localqueue.spring.QueueListener;
import io.localqueue.spring.autoconfigure.LocalQueueAutoConfiguration;
import io.localqueue.spring.autoconfigure.LocalQueueHealthAutoConfiguration;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;
import org.springframework.jdbc.datasource.DelegatingDataSource;

/**
 * {@code localqueue.store=postgresql} on a real server: by URL on a pool of localqueue's, or on a DataSource marked
 * {@code @LocalQueueDataSource}, never on the application's own; listeners, the bus and health on it; a blank user
 * or password (an unset {@code ${VAR:}}) leaves them to the URL; contradictions end the start naming the property.
 */
@ExtendWith(OutputCaptureExtension.class)
class PostgresqlStoreTest extends ContextRunnerTestBase {

    private static final Duration BOUND = Duration.ofSeconds(20);

    private final String schema = PostgresServer.freshSchema();

    PostgresqlStoreTest() {
        super(LocalQueueAutoConfiguration.class, LocalQueueHealthAutoConfiguration.class);
    }

    @Test
    void aUrlKeepsTheQueuesInItsSchemaAndListenersAndTheBusRunThere() {
        runner.withPropertyValues("localqueue.store=postgresql", "localqueue.postgresql.url="
                        + PostgresServer.url(), "localqueue.postgresql.schema=" + schema,
                        "localqueue.postgresql.pool-size=5", "localqueue.postgresql.username=",
                        "localqueue.postgresql.password=")
                .withUserConfiguration(Handlers.class)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    LocalQueueDatabase database = context.getBean(LocalQueueDatabase.class);
                    assertThat(database.engine()).isEqualTo("PostgreSQL");
                    assertThat(database.location()).endsWith("schema " + schema);

                    context.getBean(LocalQueueTemplate.class).put("emails", "hello");
                    context.getBean(EventBus.class).dispatch(new Signed("u-1"));
                    Handlers handlers = context.getBean(Handlers.class);
                    await().atMost(BOUND).until(() -> handlers.emails.size() == 1 && handlers.signed.size() == 1);
                    assertThat(handlers.emails).containsExactly("hello");
                    assertThat(handlers.signed).containsExactly("u-1");
                    assertThat(rows(schema)).as("rows in the schema").isEqualTo(2);

                    Health health = context.getBean("localqueueHealthIndicator", HealthIndicator.class).health();
                    assertThat(health.getStatus()).isEqualTo(Status.UP);
                    assertThat(health.getDetails()).containsEntry("store", "PostgreSQL")
                            .containsEntry("location", database.location()).doesNotContainKey("file");
                });
    }

    @Test
    void aMarkedDataSourceIsTakenAndThePrimaryOneLeftAlone() {
        runner.withPropertyValues("localqueue.store=postgresql", "localqueue.postgresql.schema=" + schema)
                .withUserConfiguration(TwoDataSources.class)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    context.getBean(LocalQueueTemplate.class).put("emails", "hello");

                    assertThat(context.getBean(LocalQueueDatabase.class).location()).endsWith("schema " + schema);
                    assertThat(context.getBean(LocalQueueTemplate.class).stats("emails"))
                            .isEqualTo(new QueueStats(1, 0, 0, 0));
                    HikariDataSource primary = context.getBean("primary", HikariDataSource.class);
                    assertThat(primary.getHikariPoolMXBean() == null
                            || primary.getHikariPoolMXBean().getTotalConnections() == 0)
                            .as("the primary pool was never used").isTrue();
                });
    }

    @Test
    void anUnmarkedDataSourceIsNeverTakenAndTheStartNamesWhatIsMissing() {
        runner.withPropertyValues("localqueue.store=postgresql")
                .withBean(DataSource.class, PostgresqlStoreTest::pool)
                .run(context -> assertThat(context).getFailure().rootCause()
                        .isInstanceOf(InvalidConfigurationPropertyValueException.class)
                        .hasMessageContaining("localqueue.store")
                        .hasMessageContaining("localqueue.postgresql.url, or a DataSource bean marked "
                                + "@LocalQueueDataSource")
                        .hasMessageContaining("not taken without the mark"));
    }

    @Test
    void contradictionsAndBadValuesNameTheProperty() {
        runner.withPropertyValues("localqueue.store=postgresql", "localqueue.postgresql.url=" + PostgresServer.url())
                .withUserConfiguration(MarkedOnly.class)
                .run(context -> assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("localqueue.postgresql.url")
                        .hasMessageContaining("marked @LocalQueueDataSource too"));
        onTempDir().withUserConfiguration(MarkedOnly.class)
                .run(context -> assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("localqueue.store")
                        .hasMessageContaining("set localqueue.store=postgresql"));
        runner.withPropertyValues("localqueue.store=postgresql", "localqueue.postgresql.url=" + PostgresServer.url(),
                        "localqueue.postgresql.pool-size=1")
                .run(context -> assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("localqueue.postgresql.pool-size")
                        .hasMessageContaining("at least 3"));
        runner.withPropertyValues("localqueue.store=postgresql", "localqueue.postgresql.url=" + PostgresServer.url(),
                        "localqueue.postgresql.schema=Queues")
                .run(context -> assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("localqueue.postgresql.schema")
                        .hasMessageContaining("'Queues'"));
        runner.withPropertyValues("localqueue.store=mysql")
                .run(context -> assertThat(context).getFailure().hasStackTraceContaining("localqueue.store"));
    }

    @Test
    void anUnreachableServerIsDownWithItsErrorAndTheIntegrityUnknownNotTheLastCheck(CapturedOutput output) {
        runner.withPropertyValues("localqueue.store=postgresql", "localqueue.postgresql.schema=" + schema,
                        "localqueue.bus.enabled=false")
                .withUserConfiguration(Switchable.class)
                .run(context -> {
                    context.getBean(LocalQueueTemplate.class).put("emails", "hello");
                    HealthIndicator indicator = context.getBean("localqueueHealthIndicator", HealthIndicator.class);
                    Health reachable = indicator.health();
                    assertThat(reachable.getStatus()).isEqualTo(Status.UP);
                    assertThat(reachable.getDetails()).containsEntry("integrity", "ok");

                    context.getBean(SwitchableDataSource.class).reachable = false;
                    Health unreachable = indicator.health();

                    assertThat(unreachable.getStatus()).isEqualTo(Status.DOWN);
                    assertThat(unreachable.getDetails()).as("no integrity result kept from before the outage")
                            .containsEntry("integrity", "unknown");
                    assertThat(String.valueOf(unreachable.getDetails().get("error"))).contains("the server is gone");
                    assertThat(indicator.health().getStatus()).isEqualTo(Status.DOWN);

                    context.getBean(SwitchableDataSource.class).reachable = true;
                    assertThat(indicator.health().getDetails()).containsEntry("integrity", "ok");
                    assertThat(output.getOut()).as("a run of failed probes is logged once, without a stack trace")
                            .containsOnlyOnce("the store does not answer").doesNotContain("health check failed")
                            .containsOnlyOnce("the store answers again");
                });
    }

    /** A pool of the application's on the test server, closed with the context. */
    static HikariDataSource pool() {
        HikariDataSource pool = new HikariDataSource();
        pool.setJdbcUrl(PostgresServer.url());
        pool.setMaximumPoolSize(5);
        return pool;
    }

    private static long rows(String schema) throws Exception {
        try (Connection connection = PostgresServer.connect(); Statement statement = connection.createStatement();
             ResultSet count = statement.executeQuery("SELECT count(*) FROM " + schema + ".messages")) {
            count.next();
            return count.getLong(1);
        }
    }

    /** An event of the test's own. */
    record Signed(String userId) {
    }

    @Configuration(proxyBeanMethods = false)
    static class Handlers {

        final List<String> emails = new CopyOnWriteArrayList<>();
        final List<String> signed = new CopyOnWriteArrayList<>();

        @QueueListener(queue = "emails")
        void email(String body) {
            emails.add(body);
        }

        @EventHandler(subscription = "audit")
        void audit(Signed event) {
            signed.add(event.userId());
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class TwoDataSources {

        @Bean
        @Primary
        HikariDataSource primary() {
            HikariDataSource pool = new HikariDataSource();
            pool.setJdbcUrl("jdbc:h2:mem:lq-primary;DB_CLOSE_DELAY=-1");
            return pool;
        }

        @Bean
        @LocalQueueDataSource
        HikariDataSource queues() {
            return pool();
        }
    }

    /** The application's pool, which the test can make fail every new connection as an unreachable server does. */
    static final class SwitchableDataSource extends DelegatingDataSource implements AutoCloseable {

        volatile boolean reachable = true;

        SwitchableDataSource(HikariDataSource pool) {
            super(pool);
        }

        @Override
        public Connection getConnection() throws SQLException {
            if (!reachable) {
                throw new SQLException("the server is gone", "08001");
            }
            return super.getConnection();
        }

        @Override
        public void close() {
            ((HikariDataSource) obtainTargetDataSource()).close();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Switchable {

        @Bean
        @LocalQueueDataSource
        SwitchableDataSource queues() {
            return new SwitchableDataSource(pool());
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class MarkedOnly {

        @Bean
        @LocalQueueDataSource
        HikariDataSource queues() {
            return pool();
        }
    }
}
