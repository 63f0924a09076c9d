package io.localqueue.samples.email;

import io.localqueue.spring.EnqueueResult;
import io.localqueue.spring.LocalQueueTemplate;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The service's log of accepted emails, in its own database: each email is recorded and queued in one
 * transaction, so the queue never sends an email whose record was rolled back, and the listener never starts
 * before the record is committed.
 */
@Service
public class AcceptedEmails {

    private final JdbcTemplate jdbc;
    private final LocalQueueTemplate queues;

    AcceptedEmails(JdbcTemplate jdbc, LocalQueueTemplate queues) {
        this.jdbc = jdbc;
        this.queues = queues;
    }

    /**
     * Records an email and queues it once the record commits; the same key twice queues it once.
     *
     * @param email the email
     * @param key the client's idempotency key, or null
     * @return what became of the job: written, with its id, once this method returned
     */
    @Transactional
    public EnqueueResult accept(Email email, @Nullable String key) {
        jdbc.update("INSERT INTO accepted_emails (idempotency_key, recipient, subject, accepted_at) "
                + "VALUES (?, ?, ?, ?)", key, email.to(), email.subject(), Instant.now().toString());
        return queues.enqueue(EmailController.QUEUE, email, key);
    }

    /**
     * Lists the recipients of the emails accepted so far, oldest first.
     *
     * @return the recipients
     */
    public List<String> recipients() {
        return jdbc.queryForList("SELECT recipient FROM accepted_emails ORDER BY id", String.class);
    }
}
