package io.localqueue.samples.quickstart;

import io.localqueue.DeliveryPolicy;
import io.localqueue.Job;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.QueueEmptyException;
import io.localqueue.QueueStats;
import io.localqueue.SimpleQueue;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The quick start: a producer commits emails to {@code ./data/localqueue.db}, then a worker claims, sends and
 * acknowledges them. Run it twice: the second run finds the first run's job ids already stored and adds nothing.
 */
public final class QuickstartApplication {

    private static final DeliveryPolicy DELIVERY = new DeliveryPolicy(Duration.ofSeconds(30), 3);

    private QuickstartApplication() {
    }

    public static void main(String[] args) {
        Path data = Path.of(args.length > 0 ? args[0] : "./data");
        QueueStats stats = run(data);
        System.out.printf("emails queue in %s: ready=%d processing=%d acked=%d failed=%d%n",
                data.toAbsolutePath().normalize(), stats.ready(), stats.processing(), stats.acked(), stats.failed());
    }

    /** Produces three emails, works the queue until it is empty and returns the final counts. */
    static QueueStats run(Path data) {
        try (LocalQueueDatabase database = LocalQueueDatabase.open(data)) {
            produce(database);
            return work(database);
        }
    }

    private static void produce(LocalQueueDatabase database) {
        try (SimpleQueue<Email> emails = open(database)) {
            // The job id makes the put idempotent: a second run returns the stored job's id and adds nothing.
            long welcome = emails.put(new Email("hello@example.com", "Welcome aboard"), "welcome-email-42");
            long receipt = emails.put(new Email("billing@example.com", "Your receipt"), "receipt-email-7");
            long bounce = emails.put(new Email("bounce@invalid", "This one cannot be delivered"), "bounce-email-1");
            System.out.printf("producer: committed jobs %d, %d and %d%n", welcome, receipt, bounce);
        }
    }

    private static QueueStats work(LocalQueueDatabase database) {
        try (SimpleQueue<Email> emails = open(database)) {
            while (true) {
                Job<Email> job;
                try {
                    job = emails.get(Duration.ofMillis(500));
                } catch (QueueEmptyException drained) {
                    return emails.stats();
                }
                try {
                    send(job.data());
                    emails.ack(job);
                    System.out.printf("worker: sent job %d to %s%n", job.id(), job.data().to());
                } catch (IllegalStateException failure) {
                    // Retried until the delivery budget (3 retries) is spent, then kept as a dead letter.
                    emails.nack(job, Duration.ZERO, failure.getMessage());
                    System.out.printf("worker: job %d failed on attempt %d: %s%n", job.id(), job.attempts() + 1,
                            failure.getMessage());
                }
            }
        }
    }

    private static SimpleQueue<Email> open(LocalQueueDatabase database) {
        return SimpleQueue.builder(database, Email.class).name("emails").delivery(DELIVERY).build();
    }

    private static void send(Email email) {
        if (email.to().endsWith("@invalid")) {
            throw new IllegalStateException("no mail server accepts " + email.to());
        }
    }

    /** The job payload, stored as JSON. */
    public record Email(String to, String subject) {
    }
}
