package io.localqueue.spring.recurring;

import io.localqueue.Job;
import io.localqueue.RecurringJob;
import java.lang.reflect.InvocationTargetException;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.util.ReflectionUtils;

/**
 * The listener of one queue of recurring jobs: runs the {@code @Recurring} method its job names
 * ({@link RecurringJob#ID_HEADER}) with the tick it carries ({@link RecurringJob#TICK_HEADER}). A method's exception
 * goes to the listener as it is, so the queue's retries apply; a job no method of this application answers is a dead
 * letter at once ({@link UnknownRecurringJobException}).
 *
 * @since 0.1.0
 */
public final class RecurringDispatcher {

    private final String queue;
    private final Map<String, RecurringMethod> methods = new ConcurrentHashMap<>();

    RecurringDispatcher(String queue) {
        this.queue = queue;
    }

    void add(RecurringMethod method) {
        methods.put(method.id(), method);
    }

    /**
     * Tells how many {@code @Recurring} methods this listener runs.
     *
     * @return the count
     */
    public int methods() {
        return methods.size();
    }

    /**
     * Runs the method of the job's recurring job.
     *
     * @param job a job a recurring job enqueued
     * @throws Exception what the method threw
     * @throws UnknownRecurringJobException when no method of this application has the job's id
     */
    public void run(Job<String> job) throws Exception {
        String id = job.headers().getOrDefault(RecurringJob.ID_HEADER, job.data());
        RecurringMethod method = id == null ? null : methods.get(id);
        if (method == null) {
            throw new UnknownRecurringJobException("no @Recurring method of this application has the id '" + id
                    + "' that job " + job.id() + " of queue '" + queue + "' was enqueued for");
        }
        String tick = job.headers().get(RecurringJob.TICK_HEADER);
        Object[] arguments = method.takesTick()
                ? new Object[] {tick == null ? job.dueAt() : Instant.parse(tick)} : new Object[0];
        try {
            ReflectionUtils.makeAccessible(method.method());
            method.method().invoke(method.bean(), arguments);
        } catch (InvocationTargetException failed) {
            Throwable cause = failed.getCause();
            if (cause instanceof Exception exception) {
                throw exception;
            }
            throw (Error) cause;
        }
    }

    /** A job of a queue of recurring jobs whose id no {@code @Recurring} method of this application has. */
    public static final class UnknownRecurringJobException extends IllegalStateException {

        private static final long serialVersionUID = 1L;

        UnknownRecurringJobException(String message) {
            super(message);
        }
    }
}
