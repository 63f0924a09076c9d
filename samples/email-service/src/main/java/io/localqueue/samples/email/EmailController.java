package io.localqueue.samples.email;

import io.localqueue.FailedMessage;
import io.localqueue.spring.EnqueueResult;
import io.localqueue.spring.LocalQueueRegistry;
import jakarta.validation.Valid;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * Accepts emails and shows what became of them.
 */
@RestController
@RequestMapping("/emails")
class EmailController {

    static final String QUEUE = "emails";

    private final AcceptedEmails accepted;
    private final LocalQueueRegistry queues;
    private final MailGateway gateway;

    EmailController(AcceptedEmails accepted, LocalQueueRegistry queues, MailGateway gateway) {
        this.accepted = accepted;
        this.queues = queues;
        this.gateway = gateway;
    }

    /**
     * Records and queues an email; the same {@code Idempotency-Key} twice queues it once. When the record
     * committed but the job could not be written after it (the queue filled up meanwhile), the failure is
     * answered (503 for a full queue), and the client retries with the same key.
     */
    @PostMapping
    @ResponseStatus(HttpStatus.ACCEPTED)
    Accepted accept(@Valid @RequestBody Email email,
                    @RequestHeader(name = "Idempotency-Key", required = false) @Nullable String key) {
        EnqueueResult queued = accepted.accept(email, key);
        RuntimeException lost = queued.failure();
        if (lost != null) {
            throw lost;
        }
        return new Accepted(queued.id().orElseThrow());
    }

    /** Lists the recipients of the emails accepted since the database was created. */
    @GetMapping("/accepted")
    List<String> acceptedRecipients() {
        return accepted.recipients();
    }

    /** Lists the emails sent since the service started. */
    @GetMapping("/sent")
    List<Email> sent() {
        return gateway.sent();
    }

    /** Lists the emails that could not be sent. */
    @GetMapping("/dead-letters")
    List<DeadLetter> deadLetters() {
        return queues.queue(QUEUE, Email.class).listFailed().stream().map(DeadLetter::of).toList();
    }

    record Accepted(long jobId) {
    }

    record DeadLetter(long jobId, @Nullable Email email, String reason, int attempts, @Nullable String lastError) {
        static DeadLetter of(FailedMessage<Email> failed) {
            return new DeadLetter(failed.id(), failed.data(), failed.reason().value(), failed.attempts(),
                    failed.lastError());
        }
    }
}
