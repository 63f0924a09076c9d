package io.localqueue.spring.recurring;

import io.localqueue.spring.Recurring;
import io.localqueue.spring.listener.AnnotatedMethodCollector;
import io.localqueue.spring.listener.AnnotationValues;
import io.localqueue.spring.listener.InvalidHandlerMethodException;
import java.lang.reflect.Method;
import java.time.Instant;
import java.util.Arrays;
import org.springframework.aop.support.AopUtils;
import org.springframework.util.StringUtils;

/**
 * Finds {@link Recurring} methods on beans as they are created, resolves their placeholders and checks that each takes
 * nothing or the tick's {@link Instant}; it only collects them, for {@link RecurringMethods}.
 *
 * @since 0.1.0
 */
public class RecurringAnnotationBeanPostProcessor extends AnnotatedMethodCollector<Recurring, RecurringMethod> {

    /** Creates the collector of {@link Recurring} methods. */
    public RecurringAnnotationBeanPostProcessor() {
        super(Recurring.class);
    }

    @Override
    protected RecurringMethod endpoint(Object bean, String where, Method method, Recurring annotation) {
        AnnotationValues values = values();
        String id = values.resolve(annotation.id()).trim();
        if (!StringUtils.hasText(id)) {
            throw new InvalidHandlerMethodException("@Recurring", where, "names no id");
        }
        boolean takesTick = method.getParameterCount() == 1 && method.getParameterTypes()[0] == Instant.class;
        if (method.getParameterCount() > 0 && !takesTick) {
            throw new InvalidHandlerMethodException("@Recurring", where, "must take nothing or the tick's "
                    + "java.time.Instant; it takes " + Arrays.toString(method.getParameterTypes()));
        }
        return new RecurringMethod(annotation, id, values.resolve(annotation.cron()).trim(),
                values.resolve(annotation.zone()).trim(), values.resolve(annotation.queue()).trim(),
                values.resolve(annotation.missedTicks()).trim(), values.resolve(annotation.allowOverlap()).trim(),
                bean, AopUtils.selectInvocableMethod(method, bean.getClass()), takesTick, where);
    }
}
