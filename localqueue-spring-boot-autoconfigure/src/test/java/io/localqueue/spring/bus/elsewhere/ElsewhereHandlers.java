package io.localqueue.spring.bus.elsewhere;

import io.localqueue.bus.BusEvent;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** An application's handler as the guide shows one: a package-private class and method in a package of its own. */
@Configuration(proxyBeanMethods = false)
public class ElsewhereHandlers {

    /** What the handler saw. */
    public static final List<String> HANDLED = new CopyOnWriteArrayList<>();

    /** The event. */
    @BusEvent(name = "order.placed")
    public record OrderPlaced(String orderId) {
    }

    @Bean
    Orders orders() {
        return new Orders();
    }

    static final class Orders {
        @io.localqueue.spring.EventHandler
        void placed(OrderPlaced event) {
            HANDLED.add(event.orderId());
        }
    }
}
