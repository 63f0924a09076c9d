package io.localqueue.spring.bus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.localqueue.bus.EventBus;
import io.localqueue.spring.ContextRunnerTestBase;
import io.localqueue.spring.ShopDatabase;
import io.localqueue.spring.Transactions;
import io.localqueue.spring.autoconfigure.LocalQueueAutoConfiguration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.event.TransactionalEventListener;

/**
 * {@code EventBus.dispatch} stores its deliveries at once and returns them, so inside a Spring transaction it does not
 * follow it: a rollback keeps the event. Dispatching from an {@code @TransactionalEventListener} (after the commit)
 * follows it: a rolled-back order dispatches nothing, a committed one once.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DispatchInTransactionTest extends ContextRunnerTestBase {

    DispatchInTransactionTest() {
        super(LocalQueueAutoConfiguration.class);
    }

    @Test
    void aDispatchInsideATransactionIsStoredAtOnceAndKeptWhenTheTransactionRollsBack() {
        app().run(context -> {
            EventBus bus = context.getBean(EventBus.class);
            JdbcTemplate shop = context.getBean(JdbcTemplate.class);
            long[] readyInside = new long[1];

            assertThatThrownBy(() -> context.getBean(Transactions.class).required(() -> {
                shop.update("INSERT INTO orders (id, item) VALUES (?, ?)", 1, "book");
                bus.dispatch(new OrderPlaced(1));
                readyInside[0] = ready(bus);
                throw new IllegalStateException("payment refused");
            })).hasMessage("payment refused");

            assertThat(readyInside[0]).as("stored before the commit").isEqualTo(1);
            assertThat(shop.queryForObject("SELECT COUNT(*) FROM orders", Integer.class)).isZero();
            assertThat(ready(bus)).as("kept after the rollback").isEqualTo(1);
        });
    }

    @Test
    void anAfterCommitListenerDispatchesWhatCommittedAndNothingOfWhatRolledBack() {
        app().run(context -> {
            EventBus bus = context.getBean(EventBus.class);
            Transactions transactions = context.getBean(Transactions.class);
            ApplicationEventPublisher events = context;

            assertThatThrownBy(() -> transactions.required(() -> {
                events.publishEvent(new OrderPlaced(1));
                throw new IllegalStateException("payment refused");
            })).hasMessage("payment refused");
            assertThat(ready(bus)).as("nothing of the rolled-back order").isZero();

            transactions.required(() -> {
                events.publishEvent(new OrderPlaced(2));
                assertThat(ready(bus)).as("nothing before the commit").isZero();
                return null;
            });
            assertThat(ready(bus)).as("the committed order, once").isEqualTo(1);
        });
    }

    private ApplicationContextRunner app() {
        return onTempDir().withPropertyValues("localqueue.bus.topology.billing=OrderPlaced")
                .withUserConfiguration(Shop.class);
    }

    private static long ready(EventBus bus) {
        return bus.subscription("billing").stats().ready();
    }

    /** The event of a placed order. */
    record OrderPlaced(long order) {
    }

    /** Dispatches a placed order once its transaction committed. */
    static class OrderEvents {
        private final EventBus bus;

        OrderEvents(EventBus bus) {
            this.bus = bus;
        }

        @TransactionalEventListener
        void placed(OrderPlaced order) {
            bus.dispatch(order);
        }
    }

    /** An application with its own H2 database and transactions over it, which dispatches placed orders. */
    @Configuration(proxyBeanMethods = false)
    @Import(ShopDatabase.class)
    static class Shop {

        @Bean
        OrderEvents orderEvents(EventBus bus) {
            return new OrderEvents(bus);
        }
    }
}
