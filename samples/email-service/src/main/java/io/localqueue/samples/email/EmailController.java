package io.localqueue.samples.email;

import io.localqueue.FailedMessage;
import io.localqueue.spring.LocalQueueRegistry;
import io.localqueue.spring.LocalQueueTemplate;
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

    private final LocalQueueTemplate template;
    private final LocalQueueRegistry queues;
    private final MailGateway gateway;

    EmailController(LocalQueueTemplate template, LocalQueueRegistry queues, MailGateway gateway) {
        this.template = template;
        this.queues = queues;
        this.gateway = gateway;
    }

    /**
     * Queues an email; the same {@code Idempotency-Key} twice queues it once.
     */
    @PostMapping
    @ResponseStatus(HttpStatus.ACCEPTED)
    Accepted accept(@Valid @RequestBody Email email,
                    @RequestHeader(name = "Idempotency-Key", required = false) @Nullable String key) {
        return new Accepted(template.put(QUEUE, email, key));
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
