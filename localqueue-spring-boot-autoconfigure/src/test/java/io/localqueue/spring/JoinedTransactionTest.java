package io.localqueue.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.localqueue.EnqueueItem;
import io.localqueue.Job;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.QueueFullException;
import io.localqueue.SimpleQueue;
import io.localqueue.spring.autoconfigure.LocalQueueAutoConfiguration;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceInitializationAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.annotation.Transactional;

/**
 * An application whose own tables live in the queue's SQLite file, reached through Boot's DataSource, puts jobs
 * within its transactions: job and rows commit together or not at all.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class JoinedTransactionTest extends ContextRunnerTestBase {

    private static final String EMAILS = "emails";

    JoinedTransactionTest() {
        super(LocalQueueAutoConfiguration.class, DataSourceAutoConfiguration.class,
                DataSourceTransactionManagerAutoConfiguration.class, TransactionAutoConfiguration.class,
                JdbcTemplateAutoConfiguration.class, DataSourceInitializationAutoConfiguration.class);
    }

    @Test
    void theApplicationsSchemaIsAddedToTheFileOnlyOnceTheQueueMadeItItsOwn() {
        app().run(context -> {
            assertThat(context).hasNotFailed();
            JdbcTemplate jdbc = context.getBean(JdbcTemplate.class);
            assertThat(jdbc.queryForList("SELECT name FROM sqlite_master WHERE type = 'table'", String.class))
                    .contains("messages", "orders");
        });
    }

    @Test
    void aJobPutWithinTheTransactionCommitsWithTheApplicationsRows() {
        app().run(context -> {
            Shop shop = shop(context);
            long[] visibleToTheTransaction = new long[1];
            long[] readyForConsumers = new long[1];

            long id = shop.tx.required(() -> {
                long put = shop.order(1);
                visibleToTheTransaction[0] = shop.jobRows();
                readyForConsumers[0] = shop.emails().stats().ready();
                return put;
            });

            assertThat(visibleToTheTransaction[0]).isEqualTo(1);
            assertThat(readyForConsumers[0]).as("before the commit").isZero();
            assertThat(shop.orders()).isEqualTo(1);
            Job<String> job = shop.emails().getNowait();
            assertThat(job.id()).isEqualTo(id);
            assertThat(job.data()).isEqualTo("confirm order 1");
        });
    }

    @Test
    void aRollbackTakesTheJobWithTheApplicationsRows() {
        app().run(context -> {
            Shop shop = shop(context);

            assertThatThrownBy(() -> shop.tx.required(() -> {
                shop.order(1);
                throw new IllegalStateException("payment refused");
            })).hasMessage("payment refused");

            assertThat(shop.orders()).isZero();
            assertThat(shop.jobRows()).isZero();
        });
    }

    @Test
    void aSavepointRollbackTakesTheJobsPutSinceWithTheRows() {
        app().run(context -> {
            Shop shop = shop(context);

            shop.tx.required(() -> {
                shop.order(1);
                try {
                    shop.tx.nested(() -> {
                        shop.order(2);
                        throw new IllegalStateException("the nested step fails");
                    });
                } catch (IllegalStateException expected) {
                    // back to the savepoint
                }
                return shop.order(3);
            });

            assertThat(shop.orders()).isEqualTo(2);
            assertThat(shop.emails().getNowait().data()).isEqualTo("confirm order 1");
            assertThat(shop.emails().getNowait().data()).isEqualTo("confirm order 3");
            assertThat(shop.emails().stats().ready()).isZero();
        });
    }

    @Test
    void aConsumerWaitingForJobsGetsTheJobAsSoonAsTheTransactionCommits() {
        app().run(context -> {
            Shop shop = shop(context);
            CompletableFuture<Job<String>> claimed = CompletableFuture.supplyAsync(
                    () -> shop.emails().get(Duration.ofSeconds(30)));

            long id = shop.tx.required(() -> shop.order(1));

            assertThat(claimed.get(20, TimeUnit.SECONDS).id()).isEqualTo(id);
        });
    }

    @Test
    void aJobIdAlreadyInTheQueueResolvesToTheExistingJobWithinTheTransaction() {
        app().run(context -> {
            Shop shop = shop(context);
            long existing = shop.tx.required(() -> shop.order(1));

            List<Long> again = shop.tx.required(() -> shop.joining().putMany(EMAILS,
                    List.of(EnqueueItem.of("confirm order 1 again", "order-1"), EnqueueItem.of("new"))));

            assertThat(again.get(0)).isEqualTo(existing);
            assertThat(shop.emails().stats().ready()).isEqualTo(2);
        });
    }

    @Test
    void aFullQueueRefusesAtOnceAndTheTransactionRollsBack() {
        app().withPropertyValues("localqueue.queues.emails.max-pending-jobs=1").run(context -> {
            Shop shop = shop(context);
            shop.tx.required(() -> shop.order(1));

            assertThatThrownBy(() -> shop.tx.required(() -> shop.order(2))).isInstanceOf(QueueFullException.class)
                    .hasMessageContaining(EMAILS);

            assertThat(shop.orders()).isEqualTo(1);
            assertThat(shop.jobRows()).isEqualTo(1);
        });
    }

    @Test
    void withoutATransactionAJoiningPutRefuses() {
        app().run(context -> {
            Shop shop = shop(context);

            assertThatThrownBy(() -> shop.joining().put(EMAILS, "x")).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("none is running").hasMessageContaining("@Transactional");
            assertThatThrownBy(() -> shop.tx.supports(() -> shop.joining().put(EMAILS, "x")))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("none is running");
            assertThat(shop.jobRows()).isZero();
        });
    }

    @Test
    void aDataSourceTheTransactionDoesNotManageIsRefused() {
        app().run(context -> {
            Shop shop = shop(context);
            JdbcDataSource unmanaged = new JdbcDataSource();
            unmanaged.setURL("jdbc:h2:mem:unmanaged-" + UUID.randomUUID());

            assertThatThrownBy(() -> shop.tx.required(() -> shop.template.joining(unmanaged).put(EMAILS, "x")))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("holds none");
        });
    }

    @Test
    void aTransactionOnAnotherFileIsRefusedNamingIt() {
        onTempDir().withUserConfiguration(ShopApplication.class)
                .withPropertyValues("spring.datasource.url=jdbc:sqlite:" + dir.resolve("shop.db"),
                        "spring.sql.init.mode=always",
                        "spring.sql.init.schema-locations=classpath:io/localqueue/spring/shop-schema.sql")
                .run(context -> {
                    Shop shop = shop(context);

                    assertThatThrownBy(() -> shop.tx.required(() -> shop.order(1)))
                            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("shop.db")
                            .hasMessageContaining("not the queue's file");
                    assertThat(shop.orders()).isZero();
                });
    }

    @Test
    void anInterceptorRunsAroundJoinedPutsAndTheHeadersItAddsCommitWithTheJob() {
        app().withBean(EnqueueInterceptor.class, TenantHeader::new).run(context -> {
            Shop shop = shop(context);

            long id = shop.tx.required(() -> shop.order(1));

            Job<String> job = shop.emails().getNowait();
            assertThat(job.id()).isEqualTo(id);
            assertThat(job.headers()).isEqualTo(Map.of("tenant", "acme"));
        });
    }

    /** Adds a header to every job of every write, as the template's observation adds the trace context. */
    static final class TenantHeader implements EnqueueInterceptor {
        @Override
        public <R> R intercept(String queue, List<EnqueueItem<Object>> items,
                               Function<List<EnqueueItem<Object>>, R> write) {
            return write.apply(items.stream().map(item -> item.withHeaders(Map.of("tenant", "acme"))).toList());
        }
    }

    private ApplicationContextRunner app() {
        return onTempDir().withUserConfiguration(ShopApplication.class).withPropertyValues(
                "spring.datasource.url=jdbc:sqlite:" + dir.resolve(LocalQueueDatabase.FILE_NAME)
                        + "?busy_timeout=5000&transaction_mode=IMMEDIATE",
                "spring.sql.init.mode=always",
                "spring.sql.init.schema-locations=classpath:io/localqueue/spring/shop-schema.sql");
    }

    private static Shop shop(ApplicationContext context) {
        return context.getBean(Shop.class);
    }

    /** The application: Boot's DataSource on the queue's file, and its transactions. */
    @Configuration(proxyBeanMethods = false)
    static class ShopApplication {

        @Bean
        Transactions transactions() {
            return new Transactions();
        }

        @Bean
        Shop shop(Transactions transactions, JdbcTemplate jdbc, DataSource dataSource, LocalQueueTemplate template,
                  LocalQueueRegistry registry) {
            return new Shop(transactions, jdbc, dataSource, template, registry);
        }
    }

    /** The tests' view of the application. */
    static final class Shop {
        final Transactions tx;
        final JdbcTemplate jdbc;
        final DataSource dataSource;
        final LocalQueueTemplate template;
        final LocalQueueRegistry registry;

        Shop(Transactions tx, JdbcTemplate jdbc, DataSource dataSource, LocalQueueTemplate template,
             LocalQueueRegistry registry) {
            this.tx = tx;
            this.jdbc = jdbc;
            this.dataSource = dataSource;
            this.template = template;
            this.registry = registry;
        }

        JoiningQueueTemplate joining() {
            return template.joining(dataSource);
        }

        /** Stores an order and puts its confirmation within whatever transaction runs. */
        long order(long id) {
            jdbc.update("INSERT INTO orders (id, item) VALUES (?, ?)", id, "item " + id);
            return joining().put(EMAILS, "confirm order " + id, "order-" + id);
        }

        long orders() {
            return count("SELECT COUNT(*) FROM orders");
        }

        /** Counts the queue's rows as the application's connection sees them. */
        long jobRows() {
            return count("SELECT COUNT(*) FROM messages WHERE queue = '" + EMAILS + "'");
        }

        SimpleQueue<String> emails() {
            return registry.queue(EMAILS, String.class);
        }

        private long count(String sql) {
            Long count = jdbc.queryForObject(sql, Long.class);
            return count == null ? 0 : count;
        }
    }
}
