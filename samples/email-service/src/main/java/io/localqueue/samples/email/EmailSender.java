package io.localqueue.samples.email;

import io.localqueue.Job;
import io.localqueue.spring.QueueListener;
import org.springframework.stereotype.Component;

/**
 * Sends the emails of the {@code emails} queue: a return acknowledges the job, a busy server's exception retries
 * it (up to the queue's {@code max-retries}), an undeliverable address makes it a dead letter at once.
 */
@Component
public class EmailSender {

    private final MailGateway gateway;

    EmailSender(MailGateway gateway) {
        this.gateway = gateway;
    }

    @QueueListener(queue = EmailController.QUEUE, concurrency = "${email.senders:2}",
            permanentErrors = MailGateway.UndeliverableEmailException.class)
    void send(Job<Email> job) {
        gateway.send(job.data(), job.attempts());
    }
}
