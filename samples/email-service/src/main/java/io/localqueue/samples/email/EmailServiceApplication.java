package io.localqueue.samples.email;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * An email service: {@code POST /emails} records an email in the service's own database and, in the same
 * transaction, enqueues it on the durable {@code emails} queue, which writes it once the record commits; a
 * {@code @QueueListener} sends it, retrying a busy mail server and dead-lettering undeliverable addresses. The
 * queue survives restarts in {@code ./data/localqueue.db}, the record in {@code ./email-service.db}; watch the
 * queue at {@code /actuator/localqueue}.
 */
@SpringBootApplication
public class EmailServiceApplication {

    public static void main(String[] args) {
        SpringApplication.run(EmailServiceApplication.class, args);
    }
}
