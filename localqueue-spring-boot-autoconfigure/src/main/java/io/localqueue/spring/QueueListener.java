package io.localqueue.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a bean method that handles the jobs of a queue. The method takes the payload (any JSON-mappable type, its
 * generic type arguments included, such as {@code Map<String, List<Email>>}) or {@code Job<T>}, and in
 * {@link AckMode#MANUAL} mode also an {@link io.localqueue.Acknowledgement}; a {@link #batch()} listener takes
 * {@code List<T>} or {@code List<Job<T>>}. Returning acknowledges the job, throwing retries it until its delivery
 * budget is spent, and an exception listed in {@link #permanentErrors()} makes it a dead letter at once. A payload
 * type that cannot be resolved (a bare type variable) fails the start. String attributes accept {@code ${…}}
 * placeholders.
 *
 * <pre>{@code
 * @QueueListener(queue = "emails", concurrency = "${mail.workers:4}", permanentErrors = InvalidAddress.class)
 * void send(Email email) { mailer.send(email); }
 * }</pre>
 *
 * @since 0.1.0
 */
@Target({ElementType.METHOD, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface QueueListener {

    /**
     * The queue to consume.
     *
     * @return a queue name or placeholder
     */
    String queue();

    /**
     * The listener's id, used in logs, thread names and the registry; defaults to "bean.method".
     *
     * @return an id or placeholder
     */
    String id() default "";

    /**
     * How many invocations run at once; defaults to {@code localqueue.listener.concurrency}.
     *
     * @return a positive number or placeholder
     */
    String concurrency() default "";

    /**
     * Exceptions (and their subclasses) that make a job a dead letter at once instead of being retried.
     *
     * @return exception types
     */
    Class<? extends Throwable>[] permanentErrors() default {};

    /**
     * Whether the listener starts with the context ("true"/"false"); defaults to
     * {@code localqueue.listener.auto-startup}.
     *
     * @return a boolean or placeholder
     */
    String autoStartup() default "";

    /**
     * The bean name of the {@code QueueListenerContainerFactory} to build this listener's container with.
     *
     * @return a bean name, or empty for the default factory
     */
    String containerFactory() default "";

    /**
     * How the method's jobs are settled, {@code AUTO} or {@code MANUAL} (any case); defaults to MANUAL when the
     * method takes an {@link io.localqueue.Acknowledgement}, else to {@code localqueue.listener.ack-mode}.
     *
     * @return an ack mode or placeholder
     * @since 0.1.0
     */
    String ackMode() default "";

    /**
     * Whether the method takes a batch of jobs, as {@code List<T>} or {@code List<Job<T>>}: returning acknowledges
     * them all, an {@link io.localqueue.BatchFailedException} fails only the job at its index.
     *
     * @return true for a batch listener
     * @since 0.1.0
     */
    boolean batch() default false;

    /**
     * The most jobs in one batch of a {@link #batch()} listener; defaults to {@code localqueue.listener.batch-size}.
     *
     * @return a number from 1 to 1000, or placeholder
     * @since 0.1.0
     */
    String batchSize() default "";

    /**
     * How long a {@link #batch()} listener's batch that is not full waits for more jobs, such as {@code 500ms};
     * defaults to {@code localqueue.listener.batch-wait}.
     *
     * @return a duration or placeholder
     * @since 0.1.0
     */
    String batchWait() default "";
}
