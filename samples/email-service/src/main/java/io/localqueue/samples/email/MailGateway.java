package io.localqueue.samples.email;

import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * A stand-in for an SMTP relay, so the sample runs anywhere: addresses in {@code .invalid} domains are refused
 * for good, the server at {@code busy.example.com} refuses the first two attempts, everything else is "sent" (kept
 * in memory and logged).
 */
@Component
public class MailGateway {

    private static final Logger log = LoggerFactory.getLogger(MailGateway.class);
    private static final int BUSY_ATTEMPTS = 2;

    private final List<Email> sent = new ArrayList<>();

    /**
     * Sends an email.
     *
     * @param email the email
     * @param attempt the delivery attempt, 0 for the first
     * @throws UndeliverableEmailException when the address can never receive mail
     * @throws MailServerBusyException when the server asks to try again later
     */
    public void send(Email email, int attempt) {
        String domain = email.to().substring(email.to().indexOf('@') + 1);
        if (domain.endsWith(".invalid")) {
            throw new UndeliverableEmailException("no mail server accepts mail for " + email.to());
        }
        if (domain.equals("busy.example.com") && attempt < BUSY_ATTEMPTS) {
            throw new MailServerBusyException("421 " + domain + " is busy, try again later");
        }
        synchronized (sent) {
            sent.add(email);
        }
        log.info("Sent '{}' to {}", email.subject(), email.to());
    }

    /**
     * Returns the emails sent since start.
     *
     * @return a snapshot, oldest first
     */
    public List<Email> sent() {
        synchronized (sent) {
            return List.copyOf(sent);
        }
    }

    /** The address can never receive mail: retrying is pointless. */
    public static class UndeliverableEmailException extends RuntimeException {
        UndeliverableEmailException(String message) {
            super(message);
        }
    }

    /** The server is busy: a later attempt may succeed. */
    public static class MailServerBusyException extends RuntimeException {
        MailServerBusyException(String message) {
            super(message);
        }
    }
}
