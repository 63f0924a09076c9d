package io.localqueue.samples.email;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * An email service: {@code POST /emails} puts an email on the durable {@code emails} queue and returns at once;
 * a {@code @QueueListener} sends it, retrying a busy mail server and dead-lettering undeliverable addresses. The
 * queue survives restarts in {@code ./data/localqueue.db}; watch it at {@code /actuator/localqueue}.
 */
@SpringBootApplication
public class EmailServiceApplication {

    public static void main(String[] args) {
        SpringApplication.run(EmailServiceApplication.class, args);
    }
}
