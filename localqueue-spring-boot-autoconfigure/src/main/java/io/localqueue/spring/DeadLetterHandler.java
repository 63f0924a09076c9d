package io.localqueue.spring;

/**
 * Told of every dead letter the application's listeners and event-bus handlers made, for alerting; declare beans of
 * this type. A handler that throws is logged and changes nothing: the job stays a dead letter and other handlers are
 * still called. It runs on the consumer's report thread ({@code localqueue-report-…}), after the
 * {@link JobDeadLetteredEvent} listeners, one dead letter at a time and never on the thread that records settlements:
 * a slow handler delays only that consumer's later reports, and the first report slower than a second is logged.
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
