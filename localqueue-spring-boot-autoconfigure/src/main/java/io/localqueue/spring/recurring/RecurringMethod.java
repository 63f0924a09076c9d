package io.localqueue.spring.recurring;

import io.localqueue.spring.Recurring;
import java.lang.reflect.Method;

/**
 * One {@link Recurring} method as its annotation gives it, placeholders resolved: the configuration's overrides and
 * the checks of its cron and zone come when the schedules are built ({@link RecurringMethods}).
 *
 * @param recurring the annotation
 * @param id the recurring job's id
 * @param cron the annotation's cron, possibly empty
 * @param zone the annotation's zone, possibly empty
 * @param queue the queue, possibly empty for the library's
 * @param missedTicks the annotation's policy, possibly empty
 * @param allowOverlap the annotation's overlap flag, possibly empty
 * @param bean the bean to invoke (the proxy, when the bean is proxied)
 * @param method the method to invoke on {@code bean}
 * @param takesTick whether the method takes the tick's {@link java.time.Instant}
 * @param where the bean and method, for messages
 * @since 0.1.0
 */
public record RecurringMethod(Recurring recurring, String id, String cron, String zone, String queue,
                              String missedTicks, String allowOverlap, Object bean, Method method,
                              boolean takesTick, String where) {
}
