package io.localqueue.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a bean method that handles the events of one type delivered through a subscription of the application's
 * {@link io.localqueue.bus.EventBus}. The method takes the event (a concrete class, usually a
 * {@link io.localqueue.bus.BusEvent} record) and optionally an {@link io.localqueue.bus.EventContext}, in either
 * order. Returning nothing (or null) acknowledges the delivery; returning an event or a collection of events
 * acknowledges it and emits them in one transaction; {@link io.localqueue.bus.RetryException} and
 * {@link io.localqueue.bus.RejectException} behave as in the bus. Any other signature fails the start, naming the
 * method. String attributes accept {@code ${…}} placeholders. Handlers are registered when the context starts;
 * a handler on a bean created after that (a lazy one) is refused.
 *
 * <pre>{@code
 * @EventHandler(concurrency = "${welcome.workers:4}")
 * void welcome(UserCreated event, EventContext context) { mailer.welcome(event.userId(), context.eventId()); }
 * }</pre>
 *
 * @since 0.1.0
 */
@Target({ElementType.METHOD, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface EventHandler {

    /**
     * The subscription the handler consumes, which routes the event type to it; empty (the default) means the
     * subscription named after the event type.
     *
     * @return a subscription name or placeholder
     */
    String subscription() default "";

    /**
     * How many of the subscription's handlers run at once in this process; empty keeps the subscription's setting
     * ({@code localqueue.bus.subscriptions.<name>.concurrency}, else 1).
     *
     * @return a positive number or placeholder
     */
    String concurrency() default "";

    /**
     * How long the handler may run before it is interrupted and the delivery retried, such as {@code 30s}; empty
     * for no limit.
     *
     * @return a duration or placeholder
     */
    String handlerTimeout() default "";

    /**
     * Exceptions (and their subclasses) that make a delivery a dead letter at once
     * ({@code permanent_handler_error}).
     *
     * @return exception types
     */
    Class<? extends Throwable>[] permanentErrors() default {};
}
