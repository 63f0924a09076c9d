package io.localqueue.spring.listener;

import io.localqueue.Job;
import io.localqueue.JobHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import org.springframework.util.ReflectionUtils;

/**
 * Calls a listener method with the payload or the job, rethrowing what the method throws as it was thrown, so that
 * permanent-error matching sees the method's own exception.
 */
final class MethodJobHandler<T> implements JobHandler<T> {

    private final Object bean;
    private final Method method;
    private final boolean takesJob;

    MethodJobHandler(Object bean, Method method, boolean takesJob) {
        this.bean = bean;
        this.method = method;
        this.takesJob = takesJob;
        ReflectionUtils.makeAccessible(method);
    }

    @Override
    public void handle(Job<T> job) throws Exception {
        try {
            method.invoke(bean, takesJob ? job : job.data());
        } catch (InvocationTargetException thrown) {
            Throwable cause = thrown.getCause();
            if (cause instanceof Exception exception) {
                throw exception;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw thrown;
        }
    }
}
