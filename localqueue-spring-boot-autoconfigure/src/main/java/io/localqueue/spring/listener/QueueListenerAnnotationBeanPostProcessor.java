package io.localqueue.spring.listener;

import io.localqueue.spring.AckMode;
import io.localqueue.spring.QueueListener;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.support.AopUtils;
import org.springframework.util.StringUtils;

/**
 * Finds {@link QueueListener} methods on beans as they are created, resolves their placeholders and checks their
 * signatures; it only collects endpoints. {@link QueueListenerEndpointRegistry} takes those found so far when the
 * context starts, and every one found later (a lazy or scoped bean created afterwards) as it is found.
 *
 * @since 0.1.0
 */
public class QueueListenerAnnotationBeanPostProcessor
        extends AnnotatedMethodCollector<QueueListener, QueueListenerEndpoint> {

    /** Creates the collector of {@link QueueListener} methods. */
    public QueueListenerAnnotationBeanPostProcessor() {
        super(QueueListener.class);
    }

    @Override
    protected QueueListenerEndpoint endpoint(Object bean, String where, Method method, QueueListener annotation) {
        String queue = resolve(annotation.queue());
        if (!StringUtils.hasText(queue)) {
            throw new InvalidHandlerMethodException("@QueueListener", where, "names no queue");
        }
        ListenerSignature signature = ListenerSignature.of(method, AopUtils.getTargetClass(bean), annotation.batch(),
                where);
        AckMode ackMode = ackMode(annotation.ackMode(), signature, where);
        if (!signature.batch() && (StringUtils.hasText(annotation.batchSize())
                || StringUtils.hasText(annotation.batchWait()))) {
            throw new InvalidHandlerMethodException("@QueueListener", where, "sets batchSize or batchWait but is "
                    + "not a batch listener; add batch = true");
        }
        String id = StringUtils.hasText(annotation.id()) ? resolve(annotation.id()) : where;
        return new QueueListenerEndpoint(id, queue, bean,
                AopUtils.selectInvocableMethod(method, bean.getClass()), signature, ackMode,
                positive("concurrency", annotation.concurrency(), where), Arrays.asList(annotation.permanentErrors()),
                bool(annotation.autoStartup()), StringUtils.hasText(annotation.containerFactory())
                        ? resolve(annotation.containerFactory()) : null,
                positive("batchSize", annotation.batchSize(), where), duration(annotation.batchWait(), where));
    }

    private @Nullable Integer positive(String attribute, String value, String where) {
        return values().positive(attribute, value, where);
    }

    private @Nullable Duration duration(String value, String where) {
        return values().duration("batchWait", value, where);
    }

    /** The explicit mode, else MANUAL for a method that takes an Acknowledgement, else null (the factory's). */
    private @Nullable AckMode ackMode(String value, ListenerSignature signature, String where) {
        if (!StringUtils.hasText(value)) {
            return signature.takesAcknowledgement() ? AckMode.MANUAL : null;
        }
        String resolved = resolve(value).trim();
        AckMode mode;
        try {
            mode = AckMode.valueOf(resolved.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException invalid) {
            throw new InvalidHandlerMethodException("@QueueListener", where, "has ackMode '" + resolved
                    + "'; it must be AUTO or MANUAL", invalid);
        }
        if (mode == AckMode.AUTO && signature.takesAcknowledgement()) {
            throw new InvalidHandlerMethodException("@QueueListener", where, "takes an Acknowledgement but has "
                    + "ackMode AUTO; only MANUAL provides one");
        }
        return mode;
    }

    private @Nullable Boolean bool(String value) {
        return StringUtils.hasText(value) ? Boolean.valueOf(resolve(value).trim()) : null;
    }

    private String resolve(String value) {
        return values().resolve(value);
    }

}
