package io.localqueue.spring.listener;

import io.localqueue.BatchJobHandler;
import io.localqueue.Job;
import java.lang.reflect.Method;
import io.localqueue.spring.ListenerErrorHandler;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.util.ReflectionUtils;

/** Calls a batch listener method with the jobs or their payloads, throwing what it throws. */
final class MethodBatchHandler<T> implements BatchJobHandler<T> {

    private final Object bean;
    private final Method method;
    private final ListenerSignature signature;
    private final String listenerId;
    private final @Nullable ListenerErrorHandler errorHandler;

    MethodBatchHandler(QueueListenerEndpoint endpoint, @Nullable ListenerErrorHandler errorHandler) {
        this.listenerId = endpoint.id();
        this.errorHandler = errorHandler;
        this.bean = endpoint.bean();
        this.method = endpoint.method();
        this.signature = endpoint.signature();
        ReflectionUtils.makeAccessible(method);
    }

    @Override
    public void handle(List<Job<T>> jobs) throws Exception {
        MethodJobHandler.invoke(bean, method, signature.arguments(jobs), listenerId, jobs.get(0), errorHandler);
    }
}
