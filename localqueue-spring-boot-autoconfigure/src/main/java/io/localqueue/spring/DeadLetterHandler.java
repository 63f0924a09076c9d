package io.localqueue.spring;

/**
 * Told of every job a listener made a dead letter, for alerting; declare beans of this type. A handler that throws
 * is logged and changes nothing: the job stays a dead letter and other handlers are still called. It runs on the
 * listener's thread, so hand slow work (a pager call) elsewhere.
 *
 * <pre>{@code
 * @Bean
 * DeadLetterHandler pageOnDeadLetters(Pager pager) {
 *     return event -> pager.page("job " + event.jobId() + " of " + event.queue() + ": " + event.reason());
 * }
 * }</pre>
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface DeadLetterHandler {

    /**
     * Handles one new dead letter.
     *
     * @param deadLetter the queue, job id, reason, last error and number of deliveries
     */
    void onDeadLetter(JobDeadLetteredEvent deadLetter);
}
