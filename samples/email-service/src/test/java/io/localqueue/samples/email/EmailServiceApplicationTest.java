package io.localqueue.samples.email;

import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.JobOutcome;
import io.localqueue.test.AutoConfigureLocalQueue;
import io.localqueue.test.HandledJob;
import io.localqueue.test.LocalQueueTestSupport;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.core.env.Environment;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.client.RestClient;

/**
 * The service over HTTP, with its listener on its own threads as in production; the test kit gives the context a
 * temporary queue file and drains the queue instead of polling for the sent email.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"localqueue.listener.poll-interval=100ms", "localqueue.delivery.backoff.jitter=false"})
@AutoConfigureLocalQueue
class EmailServiceApplicationTest {

    private static final Duration BOUND = Duration.ofSeconds(20);

    /** Longer than any backoff wait: the default cap. */
    private static final Duration PAST_ANY_BACKOFF = Duration.ofMinutes(5);

    @Autowired
    Environment environment;

    @Autowired
    LocalQueueTestSupport localQueue;

    /** The service's own database, apart from the queue file the test kit provides. */
    @TempDir
    static Path serviceData;

    RestClient http;

    @DynamicPropertySource
    static void serviceDatabase(DynamicPropertyRegistry registry) {
        registry.add("spring.datasource.url", () -> "jdbc:sqlite:" + serviceData.resolve("email-service.db")
                + "?busy_timeout=5000");
    }

    @BeforeEach
    void client() {
        http = RestClient.create("http://localhost:" + environment.getProperty("local.server.port"));
    }

    @Test
    void acceptsAnEmailAndSendsItFromTheQueue() {
        long jobId = accept("hello@example.com", null);

        assertThat(drain()).singleElement().satisfies(job -> {
            assertThat(job.jobId()).isEqualTo(jobId);
            assertThat(job.outcome()).isEqualTo(JobOutcome.ACKED);
        });
        assertThat(sentTo()).contains("hello@example.com");
    }

    @Test
    void anAcceptedEmailIsRecordedAndQueuedOnceTheRecordCommits() {
        long jobId = accept("recorded@example.com", null);

        assertThat(jobId).as("the id of the job written after the commit").isPositive();
        List<String> accepted = http.get().uri("/emails/accepted").retrieve()
                .body(new ParameterizedTypeReference<>() { });
        assertThat(accepted).contains("recorded@example.com");
        assertThat(drain()).extracting(HandledJob::jobId).containsExactly(jobId);
        assertThat(sentTo()).contains("recorded@example.com");
    }

    @Test
    void sameIdempotencyKeyQueuesOnce() {
        long first = accept("twice@example.com", "order-7-confirmation");
        long second = accept("twice@example.com", "order-7-confirmation");

        assertThat(second).isEqualTo(first);
        assertThat(drain()).extracting(HandledJob::jobId).containsExactly(first);
    }

    @Test
    void busyServerIsRetriedUntilTheEmailIsSent() {
        accept("someone@busy.example.com", null);

        assertThat(drain()).extracting(HandledJob::outcome).containsExactly(JobOutcome.RETRIED);
        localQueue.clock().advance(PAST_ANY_BACKOFF);
        assertThat(drain()).extracting(HandledJob::outcome).containsExactly(JobOutcome.RETRIED);
        assertThat(sentTo()).doesNotContain("someone@busy.example.com");
        localQueue.clock().advance(PAST_ANY_BACKOFF);

        assertThat(drain()).singleElement().satisfies(job -> {
            assertThat(job.attempts()).isEqualTo(2);
            assertThat(job.outcome()).isEqualTo(JobOutcome.ACKED);
        });
        assertThat(sentTo()).contains("someone@busy.example.com");
    }

    @Test
    void undeliverableAddressBecomesADeadLetterAtOnce() {
        long jobId = accept("nobody@nowhere.invalid", null);

        assertThat(drain()).extracting(HandledJob::outcome).containsExactly(JobOutcome.DEAD_LETTERED);
        Map<String, Object> dead = deadLetters().stream()
                .filter(entry -> ((Number) entry.get("jobId")).longValue() == jobId).findFirst().orElseThrow();
        assertThat(dead).containsEntry("reason", "permanent_handler_error").containsEntry("attempts", 1);
        assertThat((String) dead.get("lastError")).contains("UndeliverableEmailException");
    }

    @Test
    void invalidEmailIsRefusedWithoutQueueing() {
        HttpStatusCode status = http.post().uri("/emails").contentType(MediaType.APPLICATION_JSON)
                .body(Map.of("to", "not-an-address", "subject", "x"))
                .exchange((request, response) -> response.getStatusCode());

        assertThat(status.value()).isEqualTo(400);
        assertThat(drain()).isEmpty();
    }

    @Test
    void actuatorShowsTheQueueAndItsListener() {
        accept("watch@example.com", null);

        Map<String, Object> queue = http.get().uri("/actuator/localqueue/emails").retrieve()
                .body(new ParameterizedTypeReference<>() { });
        Map<String, Object> health = http.get().uri("/actuator/health").retrieve()
                .body(new ParameterizedTypeReference<>() { });

        assertThat(queue).containsKeys("diagnostics", "listeners");
        assertThat(queue.get("listeners").toString()).contains("emailSender.send");
        assertThat(health.get("components").toString()).contains("localqueue");
        assertThat(drain()).extracting(HandledJob::outcome).containsExactly(JobOutcome.ACKED);
    }

    @Test
    void eachAcceptedEmailAndEachDeliveryIsObserved() {
        accept("observed@example.com", null);
        assertThat(drain()).extracting(HandledJob::outcome).containsExactly(JobOutcome.ACKED);

        Map<String, Object> delivered = http.get().uri("/actuator/metrics/localqueue.listener?tag=queue:emails")
                .retrieve().body(new ParameterizedTypeReference<>() { });
        Map<String, Object> put = http.get().uri("/actuator/metrics/localqueue.template?tag=queue:emails")
                .retrieve().body(new ParameterizedTypeReference<>() { });

        assertThat(delivered.get("measurements").toString()).contains("COUNT");
        assertThat(delivered.get("availableTags").toString()).contains("listener.id", "emailSender.send");
        assertThat(put.get("measurements").toString()).contains("COUNT");
    }

    private List<HandledJob> drain() {
        return localQueue.drain(EmailController.QUEUE, BOUND);
    }

    private long accept(String to, String idempotencyKey) {
        Map<String, Object> accepted = http.post().uri("/emails").contentType(MediaType.APPLICATION_JSON)
                .headers(headers -> {
                    if (idempotencyKey != null) {
                        headers.add("Idempotency-Key", idempotencyKey);
                    }
                })
                .body(Map.of("to", to, "subject", "Hello", "body", "Hi there"))
                .retrieve().body(new ParameterizedTypeReference<>() { });
        return ((Number) accepted.get("jobId")).longValue();
    }

    private List<String> sentTo() {
        List<Map<String, Object>> sent = http.get().uri("/emails/sent").retrieve()
                .body(new ParameterizedTypeReference<>() { });
        return sent.stream().map(email -> (String) email.get("to")).toList();
    }

    private List<Map<String, Object>> deadLetters() {
        return http.get().uri("/emails/dead-letters").retrieve().body(new ParameterizedTypeReference<>() { });
    }
}
