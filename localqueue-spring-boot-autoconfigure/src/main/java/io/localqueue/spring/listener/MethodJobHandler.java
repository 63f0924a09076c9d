package io.localqueue.spring.listener;

import io.localqueue.Acknowledgement;
import io.localqueue.Job;
import io.localqueue.JobHandler;
import io.localqueue.SimpleQueue;
import io.localqueue.spring.ListenerErrorHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import org.jspecify.annotations.Nullable;
import org.springframework.util.ReflectionUtils;

/**
 * Calls a listener method with the payload or the job (and, in manual mode, an {@link Acknowledgement}),
 * rethrowing what the method throws as it was thrown, so that permanent-error matching sees the method's own
 * exception. A manual method that returns without settling its job fails the delivery, so the job is retried.
 */
final class MethodJobHandler<T> implements JobHandler<T> {

    private final Object bean;
    private final Method method;
    private final ListenerSignature signature;
    private final @Nullable SimpleQueue<T> manualQueue;
    private final String listenerId;
    private final @Nullable ListenerErrorHandler errorHandler;

    MethodJobHandler(QueueListenerEndpoint endpoint, @Nullable SimpleQueue<T> manualQueue,
                     @Nullable ListenerErrorHandler errorHandler) {
        this.errorHandler = errorHandler;
        this.bean = endpoint.bean();
        this.method = endpoint.method();
        this.signature = endpoint.signature();
        this.manualQueue = manualQueue;
        this.listenerId = endpoint.id();
        ReflectionUtils.makeAccessible(method);
    }

    @Override
    public void handle(Job<T> job) throws Exception {
        SimpleQueue<T> queue = manualQueue;
        Acknowledgement acknowledgement = queue == null ? null : Acknowledgement.of(queue, job);
        invoke(bean, method, signature.arguments(job, acknowledgement), listenerId, job, errorHandler);
        if (acknowledgement != null && !acknowledgement.isSettled()) {
            throw new IllegalStateException("@QueueListener '" + listenerId + "' returned without acknowledging, "
                    + "releasing or rejecting job " + job.id() + "; its delivery counts as failed");
        }
    }

    /** Invokes a listener method, throwing what it threw, once the error handler (if any) saw an exception. */
    static void invoke(Object bean, Method method, Object[] arguments, String listenerId, Job<?> job,
                       @Nullable ListenerErrorHandler errorHandler) throws Exception {
        try {
            method.invoke(bean, arguments);
        } catch (InvocationTargetException thrown) {
            Throwable cause = thrown.getCause();
            if (cause instanceof Exception exception) {
                if (errorHandler != null) {
                    errorHandler.handleError(listenerId, job, exception);
                }
                throw exception;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw thrown;
        }
    }
}
