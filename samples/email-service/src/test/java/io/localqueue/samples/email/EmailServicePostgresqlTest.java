package io.localqueue.samples.email;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.localqueue.LocalQueueDatabase;
import io.localqueue.internal.store.postgresql.PostgresServer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.core.env.Environment;
import org.springframework.http.MediaType;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.client.RestClient;

/**
 * The service with its {@code postgresql} profile, on a real PostgreSQL server the test starts: the queue lives in
 * the profile's schema, and an accepted email is sent from it.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("postgresql")
class EmailServicePostgresqlTest {

    @Autowired
    Environment environment;

    @Autowired
    LocalQueueDatabase database;

    @TempDir
    static Path serviceData;

    @DynamicPropertySource
    static void databases(DynamicPropertyRegistry registry) {
        registry.add("spring.datasource.url", () -> "jdbc:sqlite:" + serviceData.resolve("email-service.db")
                + "?busy_timeout=5000");
        registry.add("QUEUE_DB_URL", PostgresServer::url);
    }

    @Test
    void anAcceptedEmailIsQueuedInPostgresqlAndSent() throws Exception {
        RestClient http = RestClient.create("http://localhost:" + environment.getProperty("local.server.port"));

        Map<String, Object> accepted = http.post().uri("/emails").contentType(MediaType.APPLICATION_JSON)
                .body(Map.of("to", "pg@example.com", "subject", "Hello", "body", "Hi there"))
                .retrieve().body(new ParameterizedTypeReference<>() { });

        assertThat(database.engine()).isEqualTo("PostgreSQL");
        assertThat(database.location()).endsWith("schema localqueue");
        long jobId = ((Number) accepted.get("jobId")).longValue();
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            List<Map<String, Object>> sent = http.get().uri("/emails/sent").retrieve()
                    .body(new ParameterizedTypeReference<>() { });
            return sent.stream().anyMatch(email -> "pg@example.com".equals(email.get("to")));
        });
        try (Connection connection = PostgresServer.connect(); Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery("SELECT queue, status FROM localqueue.messages WHERE id = "
                     + jobId)) {
            assertThat(row.next()).isTrue();
            assertThat(row.getString("queue")).isEqualTo(EmailController.QUEUE);
            await().atMost(Duration.ofSeconds(10)).until(() -> ackedInPostgresql(jobId));
        }
    }

    private static boolean ackedInPostgresql(long jobId) throws Exception {
        try (Connection connection = PostgresServer.connect(); Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery("SELECT status FROM localqueue.messages WHERE id = " + jobId)) {
            return row.next() && row.getInt(1) == 2;
        }
    }
}
