package io.localqueue.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.localqueue.EnqueueItem;
import io.localqueue.EnqueueOptions;
import io.localqueue.Job;
import io.localqueue.QueueEmptyException;
import io.localqueue.QueueFullException;
import io.localqueue.ReadyJob;
import io.localqueue.SimpleQueue;
import io.localqueue.spring.EnqueueResult.Status;
import io.localqueue.spring.autoconfigure.LocalQueueAutoConfiguration;
import io.localqueue.spring.autoconfigure.LocalQueueMetricsAutoConfiguration;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.event.TransactionalEventListener;

/**
 * Jobs enqueued inside transactions of the application's own DataSource (H2 here) are written when those commit and
 * dropped when they roll back, following Spring's propagation; {@code put}, which returns ids, refuses to run there.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@ExtendWith(OutputCaptureExtension.class)
class TransactionAwareEnqueueTest extends ContextRunnerTestBase {

    private static final String EMAILS = "emails";

    TransactionAwareEnqueueTest() {
        super(LocalQueueAutoConfiguration.class, LocalQueueMetricsAutoConfiguration.class,
                MetricsAutoConfiguration.class);
    }

    @Test
    void aJobEnqueuedInATransactionIsWrittenWhenItCommitsAndNotBefore() {
        app().run(context -> {
            Shop shop = shop(context);
            long[] readyInside = new long[1];

            EnqueueResult result = shop.tx.required(() -> {
                EnqueueResult enqueued = shop.order(1, "welcome");
                assertThat(enqueued.status()).isEqualTo(Status.AWAITING_COMMIT);
                assertThat(enqueued.isDeferred()).isTrue();
                assertThat(enqueued.id()).as("no id before the commit").isEmpty();
                assertThat(enqueued.ids()).isEmpty();
                readyInside[0] = shop.queues.stats(EMAILS).ready();
                return enqueued;
            });

            assertThat(readyInside[0]).as("jobs in the queue before the commit").isZero();
            assertThat(result.status()).isEqualTo(Status.WRITTEN);
            assertThat(result.isDeferred()).isTrue();
            assertThat(shop.orders()).isEqualTo(1);
            Job<Email> job = shop.emails().getNowait();
            assertThat(result.id()).hasValue(job.id());
            assertThat(result.ids()).containsExactly(job.id());
            assertThat(job.data()).isEqualTo(new Email("customer-1@example.com", "welcome"));
        });
    }

    @Test
    void aRollbackDropsTheJobWithTheApplicationsRows() {
        app().run(context -> {
            Shop shop = shop(context);
            List<EnqueueResult> results = new ArrayList<>();

            assertThatThrownBy(() -> shop.tx.required(() -> {
                results.add(shop.order(1, "welcome"));
                throw new IllegalStateException("payment refused");
            })).hasMessage("payment refused");

            assertThat(results.get(0).status()).isEqualTo(Status.ROLLED_BACK);
            assertThat(results.get(0).id()).isEmpty();
            assertThat(shop.orders()).isZero();
            assertThat(shop.queues.stats(EMAILS).ready()).isZero();
        });
    }

    @Test
    void aJobOfARequiresNewTransactionFollowsThatTransactionNotTheOuterOne() {
        app().run(context -> {
            Shop shop = shop(context);
            List<EnqueueResult> results = new ArrayList<>();
            long[] readyAfterInnerCommit = new long[1];

            assertThatThrownBy(() -> shop.tx.required(() -> {
                results.add(shop.order(1, "outer"));
                results.add(shop.tx.requiresNew(() -> shop.order(2, "inner")));
                readyAfterInnerCommit[0] = shop.queues.stats(EMAILS).ready();
                throw new IllegalStateException("outer fails");
            })).hasMessage("outer fails");

            assertThat(readyAfterInnerCommit[0]).as("written at the inner commit").isEqualTo(1);
            assertThat(results).extracting(EnqueueResult::status).containsExactly(Status.ROLLED_BACK,
                    Status.WRITTEN);
            assertThat(shop.emails().getNowait().data().subject()).isEqualTo("inner");
            assertThat(shop.orders()).isEqualTo(1);
        });
    }

    @Test
    void aRequiresNewTransactionThatRollsBackLeavesTheOuterTransactionsJobs() {
        app().run(context -> {
            Shop shop = shop(context);
            List<EnqueueResult> results = new ArrayList<>();

            shop.tx.required(() -> {
                results.add(shop.order(1, "outer"));
                try {
                    shop.tx.requiresNew(() -> {
                        results.add(shop.order(2, "inner"));
                        throw new IllegalStateException("inner fails");
                    });
                } catch (IllegalStateException expected) {
                    // the outer transaction goes on
                }
                return null;
            });

            assertThat(results).extracting(EnqueueResult::status).containsExactly(Status.WRITTEN,
                    Status.ROLLED_BACK);
            assertThat(shop.subjects()).containsExactly("outer");
        });
    }

    @Test
    void aNestedSavepointThatRollsBackDropsOnlyTheJobsEnqueuedInsideIt() {
        app().run(context -> {
            Shop shop = shop(context);
            List<EnqueueResult> results = new ArrayList<>();

            shop.tx.required(() -> {
                results.add(shop.order(1, "before"));
                try {
                    shop.tx.nested(() -> {
                        results.add(shop.order(2, "inside"));
                        throw new IllegalStateException("the nested step fails");
                    });
                } catch (IllegalStateException expected) {
                    // the savepoint rolled back; the outer transaction goes on
                }
                results.add(shop.order(3, "after"));
                return null;
            });

            assertThat(results).extracting(EnqueueResult::status).containsExactly(Status.WRITTEN,
                    Status.ROLLED_BACK, Status.WRITTEN);
            assertThat(shop.subjects()).containsExactly("before", "after");
            assertThat(shop.orders()).as("the nested step's row went with its savepoint").isEqualTo(2);
        });
    }

    @Test
    void savepointsWithinSavepointsDropWhatWasEnqueuedAfterTheOneRolledBackTo() {
        app().run(context -> {
            Shop shop = shop(context);
            List<EnqueueResult> results = new ArrayList<>();

            shop.tx.required(() -> {
                results.add(shop.order(1, "outer"));
                shop.tx.nested(() -> {
                    results.add(shop.order(2, "first level, kept"));
                    try {
                        shop.tx.nested(() -> {
                            results.add(shop.order(3, "second level, dropped"));
                            throw new IllegalStateException("the inner step fails");
                        });
                    } catch (IllegalStateException expected) {
                        // back to the second savepoint only
                    }
                    return null;
                });
                return null;
            });

            assertThat(results).extracting(EnqueueResult::status).containsExactly(Status.WRITTEN, Status.WRITTEN,
                    Status.ROLLED_BACK);
            assertThat(shop.subjects()).containsExactly("outer", "first level, kept");
        });
    }

    @Test
    void aNestedScopeThatSucceedsKeepsItsJobsForTheOuterCommitAndLosesThemWithItsRollback() {
        app().run(context -> {
            Shop shop = shop(context);
            List<EnqueueResult> results = new ArrayList<>();
            long[] readyAfterNested = new long[1];

            assertThatThrownBy(() -> shop.tx.required(() -> {
                results.add(shop.tx.nested(() -> shop.order(1, "nested")));
                readyAfterNested[0] = shop.queues.stats(EMAILS).ready();
                throw new IllegalStateException("outer fails");
            })).hasMessage("outer fails");

            assertThat(readyAfterNested[0]).as("a savepoint's release commits nothing").isZero();
            assertThat(results.get(0).status()).isEqualTo(Status.ROLLED_BACK);
            assertThat(shop.queues.stats(EMAILS).ready()).isZero();
        });
    }

    @Test
    void withoutATransactionTheJobIsWrittenAtOnce() {
        app().run(context -> {
            Shop shop = shop(context);

            EnqueueResult result = shop.queues.enqueue(EMAILS, new Email("a@example.com", "now"), "now-1");

            assertThat(result.status()).isEqualTo(Status.WRITTEN);
            assertThat(result.isDeferred()).isFalse();
            assertThat(result.id()).isPresent();
            assertThat(shop.queues.put(EMAILS, new Email("b@example.com", "now too"))).isPositive();
            assertThat(shop.queues.stats(EMAILS).ready()).isEqualTo(2);
        });
    }

    @Test
    void supportsAndNotSupportedScopesRunWithoutATransactionAndWriteAtOnce() {
        app().run(context -> {
            Shop shop = shop(context);

            EnqueueResult supported = shop.tx.supports(() -> shop.order(1, "supports"));
            EnqueueResult suspended = shop.tx.required(() -> shop.tx.notSupported(() -> {
                EnqueueResult result = shop.order(2, "not supported");
                assertThat(result.status()).isEqualTo(Status.WRITTEN);
                return result;
            }));

            assertThat(supported.isDeferred()).isFalse();
            assertThat(suspended.isDeferred()).isFalse();
            assertThat(shop.subjects()).containsExactly("supports", "not supported");
        });
    }

    @Test
    void everyPutThatReturnsIdsIsRefusedInsideATransactionNamingEnqueueAndImmediate() {
        app().run(context -> {
            Shop shop = shop(context);
            Email email = new Email("a@example.com", "put");
            List<Runnable> puts = List.of(
                    () -> shop.queues.put(EMAILS, email),
                    () -> shop.queues.put(EMAILS, email, "put-1"),
                    () -> shop.queues.put(EMAILS, email, "put-1", Duration.ZERO),
                    () -> shop.queues.putMany(EMAILS, List.of(EnqueueItem.of(email))),
                    () -> shop.queues.putAll(EMAILS, List.of(email)));

            for (Runnable put : puts) {
                assertThatThrownBy(() -> shop.tx.required(() -> {
                    put.run();
                    return null;
                })).isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("inside a Spring-managed transaction")
                        .hasMessageContaining("enqueue(...)")
                        .hasMessageContaining("immediate().put(...)");
            }

            assertThat(shop.queues.stats(EMAILS).ready()).as("nothing written, now or at a commit").isZero();
            assertThat(shop.tx.required(() -> shop.queues.immediate().put(EMAILS, email))).isPositive();
        });
    }

    @Test
    void theImmediateTemplateWritesAtOnceInsideATransactionAndKeepsTheJobOnRollback() {
        app().run(context -> {
            Shop shop = shop(context);
            List<EnqueueResult> results = new ArrayList<>();
            long[] ids = new long[1];

            assertThatThrownBy(() -> shop.tx.required(() -> {
                ids[0] = shop.queues.immediate().put(EMAILS, new Email("audit@example.com", "put"));
                results.add(shop.queues.immediate().enqueue(EMAILS, new Email("audit@example.com", "enqueue")));
                assertThat(shop.queues.stats(EMAILS).ready()).as("written inside the transaction").isEqualTo(2);
                throw new IllegalStateException("rolls back");
            })).hasMessage("rolls back");

            assertThat(ids[0]).isPositive();
            assertThat(results.get(0).status()).isEqualTo(Status.WRITTEN);
            assertThat(results.get(0).isDeferred()).isFalse();
            assertThat(shop.subjects()).containsExactly("put", "enqueue");
            assertThat(shop.queues.immediate().isTransactionAware()).isFalse();
            assertThat(shop.queues.immediate().immediate()).isSameAs(shop.queues.immediate());
        });
    }

    @Test
    void aTemplateThatIsNotTransactionAwareWritesAtOnceInsideTransactions() {
        app().withPropertyValues("localqueue.producer.transaction-aware=false").run(context -> {
            Shop shop = shop(context);

            assertThatThrownBy(() -> shop.tx.required(() -> {
                shop.queues.put(EMAILS, new Email("a@example.com", "put"));
                shop.order(1, "enqueue");
                throw new IllegalStateException("rolls back");
            })).hasMessage("rolls back");

            assertThat(shop.queues.isTransactionAware()).isFalse();
            assertThat(shop.queues.immediate()).isSameAs(shop.queues);
            assertThat(shop.subjects()).containsExactly("put", "enqueue");
        });
    }

    @Test
    void aJobEnqueuedWithOptionsInATransactionIsWrittenAtItsCommitWithItsDelayPriorityAndKey() {
        app().run(context -> {
            Shop shop = shop(context);
            EnqueueOptions options = EnqueueOptions.defaults().delay(Duration.ofHours(1)).priority(-3)
                    .concurrencyKey("customer-7");

            EnqueueResult result = shop.tx.required(() -> shop.queues.enqueueMany(EMAILS,
                    List.of(EnqueueItem.of(email("later")).withOptions(options))));

            assertThat(result.status()).isEqualTo(Status.WRITTEN);
            ReadyJob<Email> waiting = shop.emails().listReady(1, 0).get(0);
            assertThat(waiting.id()).isEqualTo(result.ids().get(0));
            assertThat(waiting.priority()).isEqualTo(-3);
            assertThat(waiting.concurrencyKey()).isEqualTo("customer-7");
            assertThat(Duration.between(waiting.createdAt(), waiting.availableAt())).as("an hour from the enqueue call")
                    .isBetween(Duration.ofHours(1).minusSeconds(1), Duration.ofHours(1));
            assertThatThrownBy(() -> shop.emails().getNowait()).isInstanceOf(QueueEmptyException.class);
        });
    }

    @Test
    void batchesAndSingleJobsOfOneTransactionAreWrittenInTheOrderTheyWereEnqueued() {
        app().run(context -> {
            Shop shop = shop(context);

            List<EnqueueResult> results = shop.tx.required(() -> List.of(
                    shop.queues.enqueueMany(EMAILS, List.of(EnqueueItem.of(email("1")), EnqueueItem.of(email("2"),
                            "two"), EnqueueItem.of(email("2 again"), "two"))),
                    shop.queues.enqueue(EMAILS, email("3")),
                    shop.queues.enqueueAll(EMAILS, List.of(email("4"), email("5")))));

            assertThat(results).allSatisfy(result -> assertThat(result.status()).isEqualTo(Status.WRITTEN));
            List<Long> ids = new ArrayList<>();
            results.forEach(result -> ids.addAll(result.ids()));
            assertThat(ids.get(1)).as("a duplicate job id resolves to one job").isEqualTo(ids.get(2));
            assertThat(List.of(ids.get(0), ids.get(1), ids.get(3), ids.get(4), ids.get(5))).isSorted();
            assertThat(results.get(0).jobCount()).isEqualTo(3);
            assertThat(shop.subjects()).containsExactly("1", "2", "3", "4", "5");
        });
    }

    @Test
    void aFullQueueRefusesADeferredEnqueueInsideTheTransaction() {
        app().withPropertyValues("localqueue.queues.small.max-pending-jobs=2").run(context -> {
            Shop shop = shop(context);
            shop.queues.put("small", email("a"));
            shop.queues.put("small", email("b"));

            assertThatThrownBy(() -> shop.tx.required(() -> shop.queues.enqueue("small", email("c"))))
                    .isInstanceOf(QueueFullException.class).hasMessageContaining("small")
                    .hasMessageContaining("before deferring");
            assertThatThrownBy(() -> shop.tx.required(() -> shop.queues.enqueueAll("small",
                    List.of(email("1"), email("2"), email("3")))))
                    .as("a batch over the limit of an empty queue")
                    .isInstanceOf(QueueFullException.class).hasMessageContaining("at least 3 jobs");
        });
    }

    @Test
    void aPayloadThatCannotBeSerializedFailsInsideTheTransaction() {
        app().run(context -> {
            Shop shop = shop(context);

            assertThatThrownBy(() -> shop.tx.required(() -> {
                shop.jdbc.update("INSERT INTO orders (id, item) VALUES (1, 'book')");
                return shop.queues.enqueue(EMAILS, new Unserializable());
            })).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cannot be serialized");
            assertThatThrownBy(() -> shop.tx.required(() -> shop.queues.enqueue(EMAILS, null)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must not be null");
            assertThatThrownBy(() -> shop.tx.required(() -> shop.queues.enqueue(EMAILS, email("x"), "id\uD800")))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("surrogate");

            assertThat(shop.orders()).isZero();
        });
    }

    @Test
    void aPayloadChangedAfterItsEnqueueReachesTheQueueAsItWasThen() {
        app().run(context -> {
            Shop shop = shop(context);
            List<String> recipients = new ArrayList<>(List.of("first@example.com"));

            shop.tx.required(() -> {
                shop.queues.enqueue("lists", recipients);
                recipients.add("second@example.com");
                return null;
            });

            assertThat(shop.registry.queue("lists").getNowait().data()).isEqualTo(List.of("first@example.com"));
        });
    }

    @Test
    void aDeferredWriteThatFailsAfterTheCommitIsLoggedPublishedAndCountedAndTheRestIsWritten(CapturedOutput output) {
        app().withPropertyValues("localqueue.queues.small.max-pending-jobs=1",
                        "localqueue.queues.small.producer.max-wait=0s")
                .withBean(SimpleMeterRegistry.class, SimpleMeterRegistry::new)
                .run(context -> {
                    Shop shop = shop(context);
                    List<EnqueueResult> results = new ArrayList<>();

                    shop.tx.required(() -> {
                        shop.jdbc.update("INSERT INTO orders (id, item) VALUES (1, 'book')");
                        results.add(shop.queues.enqueue("small", email("lost"), "order-1-receipt"));
                        shop.queues.immediate().put("small", email("takes the last room"));
                        results.add(shop.queues.enqueue(EMAILS, email("still written")));
                        return null;
                    });

                    EnqueueResult lost = results.get(0);
                    assertThat(lost.status()).isEqualTo(Status.FAILED);
                    assertThat(lost.failure()).isInstanceOf(QueueFullException.class);
                    assertThat(lost.ids()).isEmpty();
                    assertThat(results.get(1).status()).isEqualTo(Status.WRITTEN);
                    assertThat(shop.orders()).as("the transaction stays committed").isEqualTo(1);

                    List<DeferredEnqueueFailedEvent> events = context.getBean(LostJobs.class).events;
                    assertThat(events).singleElement().satisfies(event -> {
                        assertThat(event.getQueue()).isEqualTo("small");
                        assertThat(event.getJobCount()).isEqualTo(1);
                        assertThat(event.getItems()).containsExactly(EnqueueItem.of(email("lost"),
                                "order-1-receipt"));
                        assertThat(event.getFailure()).isSameAs(lost.failure());
                        assertThat(event.getSource()).isSameAs(shop.queues);
                    });
                    assertThat(context.getBean(MeterRegistry.class).get("localqueue.jobs.deferred.lost")
                            .tag("queue", "small").counter().count()).isEqualTo(1.0);
                });
        assertThat(output).contains("ERROR").contains("Lost 1 job(s) of queue 'small'")
                .contains("order-1-receipt").contains("QueueFullException");
    }

    @Test
    void anAfterCommitEventListenerCanEnqueueAndItsJobIsWrittenAtOnce() {
        app().withUserConfiguration(ConfirmationSender.class).run(context -> {
            Shop shop = shop(context);

            shop.tx.required(() -> {
                shop.jdbc.update("INSERT INTO orders (id, item) VALUES (1, 'book')");
                context.publishEvent(new OrderPlaced(1));
                return null;
            });

            EnqueueResult confirmation = context.getBean(ConfirmationSender.class).results.get(0);
            assertThat(confirmation.status()).isEqualTo(Status.WRITTEN);
            assertThat(confirmation.isDeferred()).isFalse();
            assertThat(shop.subjects()).containsExactly("order 1 confirmed");
        });
    }

    private ApplicationContextRunner app() {
        return onTempDir().withUserConfiguration(ShopApplication.class);
    }

    private static Shop shop(ApplicationContext context) {
        return context.getBean(Shop.class);
    }

    private static Email email(String subject) {
        return new Email("someone@example.com", subject);
    }

    /** The payload of the tests' jobs. */
    record Email(String to, String subject) {
    }

    /** A payload Jackson cannot write. */
    static final class Unserializable {
        public String getValue() {
            throw new IllegalStateException("no value");
        }
    }

    /** The event of a placed order, heard after the commit. */
    record OrderPlaced(long order) {
    }

    /** An application with its own H2 database, transactions over it, and the queues. */
    @Configuration(proxyBeanMethods = false)
    @Import(ShopDatabase.class)
    static class ShopApplication {

        @Bean
        Shop shop(Transactions transactions, JdbcTemplate shopJdbc, LocalQueueTemplate template,
                  LocalQueueRegistry registry) {
            return new Shop(transactions, shopJdbc, template, registry);
        }

        @Bean
        LostJobs lostJobs() {
            return new LostJobs();
        }
    }

    /** The tests' view of the application: its rows, its transactions and its queues. */
    static final class Shop {
        final Transactions tx;
        final JdbcTemplate jdbc;
        final LocalQueueTemplate queues;
        final LocalQueueRegistry registry;

        Shop(Transactions tx, JdbcTemplate jdbc, LocalQueueTemplate queues, LocalQueueRegistry registry) {
            this.tx = tx;
            this.jdbc = jdbc;
            this.queues = queues;
            this.registry = registry;
        }

        /** Stores an order and enqueues its email, in whatever transaction runs. */
        EnqueueResult order(long id, String subject) {
            jdbc.update("INSERT INTO orders (id, item) VALUES (?, ?)", id, "item " + id);
            return queues.enqueue(EMAILS, new Email("customer-" + id + "@example.com", subject), "order-" + id);
        }

        long orders() {
            Long count = jdbc.queryForObject("SELECT COUNT(*) FROM orders", Long.class);
            return count == null ? 0 : count;
        }

        SimpleQueue<Email> emails() {
            return registry.queue(EMAILS, Email.class);
        }

        /** Claims every job of the emails queue and returns their subjects in claim order. */
        List<String> subjects() {
            List<String> subjects = new ArrayList<>();
            SimpleQueue<Email> queue = emails();
            while (queue.stats().ready() > 0) {
                Job<Email> job = queue.getNowait();
                subjects.add(job.data().subject());
                queue.ack(job);
            }
            return subjects;
        }
    }

    /** Collects the events of lost deferred jobs. */
    static final class LostJobs {
        final List<DeferredEnqueueFailedEvent> events = new CopyOnWriteArrayList<>();

        @EventListener
        void on(DeferredEnqueueFailedEvent lost) {
            events.add(lost);
        }
    }

    /** Enqueues an order's confirmation once the order's transaction committed. */
    static class ConfirmationSender {
        final List<EnqueueResult> results = new CopyOnWriteArrayList<>();
        private final LocalQueueTemplate queues;

        ConfirmationSender(LocalQueueTemplate queues) {
            this.queues = queues;
        }

        @TransactionalEventListener
        void on(OrderPlaced placed) {
            results.add(queues.enqueue(EMAILS, email("order " + placed.order() + " confirmed")));
        }
    }
}
