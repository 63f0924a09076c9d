package io.localqueue.test;

import io.localqueue.Job;
import io.localqueue.RetryLaterException;
import io.localqueue.spring.QueueListener;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The listener of the kit's tests: sends mail to most addresses, refuses {@code .invalid} ones for good, asks a
 * {@code busy} server's mail to come back in five minutes on its first delivery, and holds {@code slow} mail until
 * the test opens the gate.
 */
class Mailer {

    static final String QUEUE = "mail";
    static final Duration BUSY_DELAY = Duration.ofMinutes(5);

    final List<Mail> sent = new CopyOnWriteArrayList<>();
    final List<String> threads = new CopyOnWriteArrayList<>();
    private volatile CountDownLatch gate = new CountDownLatch(1);

    @QueueListener(queue = QUEUE, permanentErrors = Undeliverable.class)
    void send(Job<Mail> job) throws InterruptedException {
        Mail mail = job.data();
        threads.add(Thread.currentThread().getName());
        if (mail.to().endsWith(".invalid")) {
            throw new Undeliverable(mail.to());
        }
        if (mail.to().startsWith("busy@") && job.attempts() == 0) {
            throw new RetryLaterException(BUSY_DELAY, "the server is busy");
        }
        if (mail.to().startsWith("slow@") && !gate.await(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the test never opened the gate");
        }
        sent.add(mail);
    }

    /** Holds slow mail from now on, until {@link #openGate()}. */
    void closeGate() {
        gate = new CountDownLatch(1);
    }

    /** Lets slow mail through. */
    void openGate() {
        gate.countDown();
    }

    record Mail(String to, String subject) {
    }

    static class Undeliverable extends RuntimeException {
        Undeliverable(String to) {
            super("no mail server accepts mail for " + to);
        }
    }
}
