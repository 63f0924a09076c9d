package io.localqueue.samples.email;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.core.env.Environment;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.client.RestClient;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"localqueue.delivery.lease=2s", "localqueue.listener.heartbeat-interval=500ms"})
class EmailServiceApplicationTest {

    private static final Path DATA = temporaryDirectory();

    @Autowired
    Environment environment;

    RestClient http;

    @DynamicPropertySource
    static void queueDirectory(DynamicPropertyRegistry registry) {
        registry.add("localqueue.path", () -> DATA.resolve("queue").toString());
        registry.add("spring.datasource.url", () -> "jdbc:sqlite:" + DATA.resolve("email-service.db")
                + "?busy_timeout=5000");
    }

    @BeforeEach
    void client() {
        http = RestClient.create("http://localhost:" + environment.getProperty("local.server.port"));
    }

    @AfterAll
    static void deleteData() throws IOException {
        try (Stream<Path> files = Files.walk(DATA)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        }
    }

    @Test
    void acceptsAnEmailAndSendsItFromTheQueue() {
        long jobId = accept("hello@example.com", null);

        assertThat(jobId).isPositive();
        await().atMost(Duration.ofSeconds(20)).until(() -> sentTo().contains("hello@example.com"));
    }

    @Test
    void anAcceptedEmailIsRecordedAndQueuedOnceTheRecordCommits() {
        long jobId = accept("recorded@example.com", null);

        assertThat(jobId).as("the id of the job written after the commit").isPositive();
        List<String> accepted = http.get().uri("/emails/accepted").retrieve()
                .body(new ParameterizedTypeReference<>() { });
        assertThat(accepted).contains("recorded@example.com");
        await().atMost(Duration.ofSeconds(20)).until(() -> sentTo().contains("recorded@example.com"));
    }

    @Test
    void sameIdempotencyKeyQueuesOnce() {
        long first = accept("twice@example.com", "order-7-confirmation");
        long second = accept("twice@example.com", "order-7-confirmation");

        assertThat(second).isEqualTo(first);
    }

    @Test
    void busyServerIsRetriedUntilTheEmailIsSent() {
        accept("someone@busy.example.com", null);

        await().atMost(Duration.ofSeconds(20)).until(() -> sentTo().contains("someone@busy.example.com"));
    }

    @Test
    void undeliverableAddressBecomesADeadLetterAtOnce() {
        long jobId = accept("nobody@nowhere.invalid", null);

        await().atMost(Duration.ofSeconds(20)).until(() -> deadLetters().stream()
                .anyMatch(dead -> ((Number) dead.get("jobId")).longValue() == jobId));
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

    private static Path temporaryDirectory() {
        try {
            return Files.createTempDirectory("email-service-test");
        } catch (IOException failure) {
            throw new IllegalStateException(failure);
        }
    }
}
