package io.localqueue.spring.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.localqueue.Job;
import io.localqueue.SimpleQueue;
import io.localqueue.spring.LocalQueueRegistry;
import io.localqueue.spring.LocalQueueTemplate;
import io.localqueue.spring.QueueListener;
import io.localqueue.spring.Recurring;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.JsonNode;

@ExtendWith(OutputCaptureExtension.class)
class LocalQueueEndpointHttpTest extends ActuatorAppTestBase {


    @Test
    void readOperationsListQueuesDiagnosticsListenersAndHealth() throws Exception {
        ConfigurableApplicationContext app = start();
        LocalQueueTemplate template = app.getBean(LocalQueueTemplate.class);
        template.put("mail", "hello");
        template.put("parked", "waiting");
        await().atMost(Duration.ofSeconds(10)).until(() -> template.stats("mail").acked() == 1);

        HttpResponse<String> all = http.get(app, "/actuator/localqueue");
        assertThat(all.statusCode()).isEqualTo(200);
        JsonNode queues = JSON.readTree(all.body()).path("queues");
        assertThat(queues.has("mail")).isTrue();
        assertThat(queues.has("parked")).isTrue();
        assertThat(queues.path("mail").path("diagnostics").path("acked").asLong()).isEqualTo(1);
        assertThat(queues.path("mail").path("diagnostics").path("queueName").asString()).isEqualTo("mail");
        assertThat(queues.path("parked").path("diagnostics").path("ready").asLong()).isEqualTo(1);
        assertThat(queues.path("parked").path("diagnostics").path("delayed").isNumber()).as("delayed jobs").isTrue();
        assertThat(queues.path("parked").path("diagnostics").has("nextDueAt")).isTrue();
        assertThat(queues.path("parked").path("diagnostics").path("retentionLastDeleted").isNumber())
                .as("the last retention run").isTrue();
        assertThat(queues.path("parked").path("diagnostics").has("retentionLastRunAt")).isTrue();
        JsonNode listener = queues.path("mail").path("listeners").path(0);
        assertThat(listener.path("id").asString()).isEqualTo("mailListener.handle");
        assertThat(listener.path("running").asBoolean()).isTrue();
        assertThat(queues.path("parked").path("listeners").size()).isZero();

        HttpResponse<String> one = http.get(app, "/actuator/localqueue/parked");
        assertThat(one.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(one.body()).path("diagnostics").path("ready").asLong()).isEqualTo(1);

        assertThat(http.get(app, "/actuator/localqueue/no-such-queue").statusCode()).isEqualTo(404);

        HttpResponse<String> health = http.get(app, "/actuator/health");
        assertThat(health.statusCode()).isEqualTo(200);
        JsonNode component = JSON.readTree(health.body()).path("components").path("localqueue");
        assertThat(component.path("status").asString()).isEqualTo("UP");
        assertThat(component.path("details").path("integrity").asString()).isEqualTo("ok");
        assertThat(component.path("details").path("queues").path("parked").path("ready").asLong()).isEqualTo(1);
        assertThat(component.path("details").path("queues").has("mail")).isTrue();
    }

    @Test
    void deadLettersAreListedPageByPageWithBoundedPreviews() throws Exception {
        ConfigurableApplicationContext app = start();
        SimpleQueue<Object> queue = app.getBean(LocalQueueRegistry.class).queue("parked");
        long first = deadLetter(app, "parked");
        queue.put("p".repeat(5_000));
        queue.fail(queue.getNowait(), "too long to show");

        HttpResponse<String> all = http.get(app, "/actuator/localqueue/parked/dead-letters");
        assertThat(all.statusCode()).isEqualTo(200);
        JsonNode page = JSON.readTree(all.body());
        assertThat(page.path("queue").asString()).isEqualTo("parked");
        assertThat(page.path("total").asLong()).isEqualTo(2);
        assertThat(page.path("limit").asInt()).isEqualTo(DeadLetterPage.DEFAULT_LIMIT);
        JsonNode oldest = page.path("deadLetters").path(0);
        assertThat(oldest.path("id").asLong()).isEqualTo(first);
        assertThat(oldest.path("reason").asString()).isEqualTo("explicit_permanent_failure");
        assertThat(oldest.path("lastError").asString()).isEqualTo("operator test");
        assertThat(oldest.path("attempts").asInt()).isEqualTo(1);
        assertThat(oldest.path("payloadPreview").asString()).isEqualTo("\"poison\"");
        JsonNode big = page.path("deadLetters").path(1);
        assertThat(big.path("payloadBytes").asInt()).isEqualTo(5_002);
        assertThat(big.path("payloadPreview").asString()).hasSize(DeadLetterPage.PREVIEW_CHARS + 1).endsWith("…");

        JsonNode second = JSON.readTree(http.get(app, "/actuator/localqueue/parked/dead-letters?limit=1&offset=1")
                .body());
        assertThat(second.path("deadLetters").size()).isEqualTo(1);
        assertThat(second.path("deadLetters").path(0).path("lastError").asString()).isEqualTo("too long to show");
    }

    @Test
    void deadLetterListingsOfUnknownQueuesViewsOrPagesAreRefused() throws Exception {
        ConfigurableApplicationContext app = start();
        deadLetter(app, "parked");

        assertThat(http.get(app, "/actuator/localqueue/typo/dead-letters").statusCode()).isEqualTo(404);
        assertThat(http.get(app, "/actuator/localqueue/parked/deadletters").statusCode()).isEqualTo(404);
        assertThat(http.get(app, "/actuator/localqueue/parked/dead-letters?limit=0").statusCode()).isEqualTo(400);
        assertThat(http.get(app, "/actuator/localqueue/parked/dead-letters?limit=101").statusCode()).isEqualTo(400);
        assertThat(http.get(app, "/actuator/localqueue/parked/dead-letters?offset=-1").statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(http.get(app, "/actuator/localqueue").body()).path("queues").has("typo")).isFalse();
    }

    @Test
    void retryIsRejectedUnlessEnabled() throws Exception {
        ConfigurableApplicationContext app = start();
        long id = deadLetter(app, "parked");

        HttpResponse<String> response = http.post(app, "/actuator/localqueue/parked", "{\"messageId\": " + id + "}");

        assertThat(response.statusCode()).isIn(404, 405);
        assertThat(app.getBean(LocalQueueTemplate.class).stats("parked").failed()).isEqualTo(1);
    }

    @Test
    void retryMovesADeadLetterBackWhenEnabled() throws Exception {
        ConfigurableApplicationContext app = start("management.endpoint.localqueue.access=unrestricted");
        long id = deadLetter(app, "parked");

        HttpResponse<String> response = http.post(app, "/actuator/localqueue/parked", "{\"messageId\": " + id + "}");

        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode body = JSON.readTree(response.body());
        assertThat(body.path("retried").asBoolean()).isTrue();
        assertThat(body.path("messageId").asLong()).isEqualTo(id);
        JsonNode diagnostics = JSON.readTree(http.get(app, "/actuator/localqueue/parked").body()).path("diagnostics");
        assertThat(diagnostics.path("ready").asLong()).isEqualTo(1);
        assertThat(diagnostics.path("failed").asLong()).isZero();

        assertThat(body.path("outcome").asString()).isEqualTo("RETRIED");
    }

    @Test
    void retryOfAnIdThatIsNotADeadLetterIsNotFound() throws Exception {
        ConfigurableApplicationContext app = start("management.endpoint.localqueue.access=unrestricted");
        long id = deadLetter(app, "parked");
        long elsewhere = deadLetter(app, "other");
        assertThat(http.post(app, "/actuator/localqueue/parked", "{\"messageId\": " + id + "}").statusCode())
                .isEqualTo(200);

        HttpResponse<String> again = http.post(app, "/actuator/localqueue/parked", "{\"messageId\": " + id + "}");
        HttpResponse<String> missing = http.post(app, "/actuator/localqueue/parked", "{\"messageId\": 987654}");
        HttpResponse<String> otherQueues = http.post(app, "/actuator/localqueue/parked",
                "{\"messageId\": " + elsewhere + "}");

        for (HttpResponse<String> response : List.of(again, missing, otherQueues)) {
            assertThat(response.statusCode()).isEqualTo(404);
            JsonNode body = JSON.readTree(response.body());
            assertThat(body.path("retried").asBoolean()).isFalse();
            assertThat(body.path("outcome").asString()).isEqualTo("NOT_A_DEAD_LETTER");
        }
        assertThat(app.getBean(LocalQueueTemplate.class).stats("other").failed()).isEqualTo(1);
    }

    @Test
    void retryOnAQueueTheApplicationDoesNotKnowIsNotFoundAndLeavesNoQueueBehind() throws Exception {
        ConfigurableApplicationContext app = start("management.endpoint.localqueue.access=unrestricted");

        HttpResponse<String> response = http.post(app, "/actuator/localqueue/nope", "{\"messageId\": 1}");

        assertThat(response.statusCode()).isEqualTo(404);
        JsonNode body = JSON.readTree(response.body());
        assertThat(body.path("outcome").asString()).isEqualTo("UNKNOWN_QUEUE");
        assertThat(body.path("message").asString()).contains("no queue 'nope'");
        assertThat(http.get(app, "/actuator/localqueue/nope").statusCode()).isEqualTo(404);
        assertThat(JSON.readTree(http.get(app, "/actuator/localqueue").body()).path("queues").has("nope")).isFalse();
        assertThat(app.getBean(LocalQueueRegistry.class).database().queueNames()).doesNotContain("nope");
    }

    @Test
    void retryOnAFullQueueIsUnavailableAndLeavesTheDeadLetter() throws Exception {
        ConfigurableApplicationContext app = start("management.endpoint.localqueue.access=unrestricted",
                "localqueue.queues.parked.max-pending-jobs=1");
        long id = deadLetter(app, "parked");
        app.getBean(LocalQueueTemplate.class).put("parked", "takes the only room");

        HttpResponse<String> response = http.post(app, "/actuator/localqueue/parked", "{\"messageId\": " + id + "}");

        assertThat(response.statusCode()).isEqualTo(503);
        assertThat(JSON.readTree(response.body()).path("outcome").asString()).isEqualTo("QUEUE_FULL");
        assertThat(app.getBean(LocalQueueTemplate.class).stats("parked").failed()).isEqualTo(1);
    }

    @Test
    void queueActionsReplayEveryDeadLetterPurgeAndPauseAndResumeTheListeners(CapturedOutput output) throws Exception {
        ConfigurableApplicationContext app = start("management.endpoint.localqueue.access=unrestricted");
        deadLetter(app, "parked");
        deadLetter(app, "parked");

        HttpResponse<String> replayed = http.post(app, "/actuator/localqueue/parked/retry-dead-letters", "{}");
        assertThat(replayed.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(replayed.body()).path("affected").asInt()).isEqualTo(2);
        assertThat(app.getBean(LocalQueueTemplate.class).stats("parked").ready()).isEqualTo(2);

        deadLetter(app, "parked");
        long deadAt = System.currentTimeMillis();
        await().atMost(Duration.ofSeconds(1)).until(() -> System.currentTimeMillis() > deadAt); // "older" than 0s
        HttpResponse<String> purged = http.post(app, "/actuator/localqueue/parked/purge", "{\"olderThan\": \"0s\"}");
        assertThat(JSON.readTree(purged.body()).path("affected").asInt()).isEqualTo(1);
        assertThat(app.getBean(LocalQueueTemplate.class).stats("parked").failed()).isZero();
        assertThat(http.post(app, "/actuator/localqueue/parked/purge", "{\"olderThan\": \"soon\"}").statusCode())
                .isEqualTo(400);

        HttpResponse<String> pausedHere = http.post(app, "/actuator/localqueue/mail/pause-here", "{}");
        assertThat(JSON.readTree(pausedHere.body()).path("affected").asInt()).isEqualTo(1);
        JsonNode listener = JSON.readTree(http.get(app, "/actuator/localqueue/mail").body()).path("listeners").get(0);
        assertThat(listener.path("paused").asBoolean()).isTrue();
        LocalQueueTemplate template = app.getBean(LocalQueueTemplate.class);
        template.put("mail", "waits");
        assertThat(template.stats("mail").ready()).isEqualTo(1);
        http.post(app, "/actuator/localqueue/mail/resume-here", "{}");
        await().atMost(Duration.ofSeconds(10)).until(() -> template.stats("mail").acked() == 1);

        HttpResponse<String> paused = http.post(app, "/actuator/localqueue/mail/pause", "{}");
        assertThat(JSON.readTree(paused.body()).path("affected").asInt()).isEqualTo(1);
        assertThat(JSON.readTree(http.post(app, "/actuator/localqueue/mail/pause", "{}").body()).path("message")
                .asString()).isEqualTo("was paused already");
        assertThat(output).as("an action that stops every process is logged")
                .contains("Operator action pause on queue 'mail': now paused for every process");
        JsonNode report = JSON.readTree(http.get(app, "/actuator/localqueue/mail").body());
        assertThat(report.path("listeners").get(0).path("paused").asBoolean()).as("the local switch").isFalse();
        assertThat(report.path("diagnostics").path("pausedBy").asString()).as("the cached read shows the pause")
                .contains("@");
        assertThat(app.getBean(LocalQueueRegistry.class).queue("mail").isPaused()).isTrue();
        template.put("mail", "waits for every process");
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5))
                .until(() -> template.stats("mail").ready() == 1);
        http.post(app, "/actuator/localqueue/mail/resume", "{}");
        await().atMost(Duration.ofSeconds(10)).until(() -> template.stats("mail").acked() == 2);

        assertThat(http.post(app, "/actuator/localqueue/mail/explode", "{}").statusCode()).isEqualTo(404);
        assertThat(http.post(app, "/actuator/localqueue/nope/pause", "{}").statusCode()).isEqualTo(404);
        assertThat(app.getBean(LocalQueueRegistry.class).database().queueNames()).doesNotContain("nope");
    }

    @Test
    void queueActionsRunWithoutABodyOrContentTypeAsCurlSendsThem() throws Exception {
        ConfigurableApplicationContext app = start("management.endpoint.localqueue.access=unrestricted");
        LocalQueueTemplate template = app.getBean(LocalQueueTemplate.class);
        deadLetter(app, "parked");
        deadLetter(app, "parked");

        HttpResponse<String> replayed = http.post(app, "/actuator/localqueue/parked/retry-dead-letters");
        assertThat(replayed.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(replayed.body()).path("affected").asInt()).isEqualTo(2);
        assertThat(template.stats("parked").ready()).isEqualTo(2);

        HttpResponse<String> paused = http.post(app, "/actuator/localqueue/mail/pause-here");
        assertThat(paused.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(paused.body()).path("affected").asInt()).isEqualTo(1);
        template.put("mail", "waits");
        assertThat(template.stats("mail").ready()).isEqualTo(1);
        assertThat(http.post(app, "/actuator/localqueue/mail/resume-here").statusCode()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(10)).until(() -> template.stats("mail").acked() == 1);

        deadLetter(app, "parked");
        HttpResponse<String> purge = http.post(app, "/actuator/localqueue/parked/purge?olderThan=7d");
        assertThat(purge.statusCode()).as("a purge never guesses how old: it needs its JSON body").isEqualTo(400);
        assertThat(JSON.readTree(purge.body()).path("error").asString()).contains("{\"olderThan\": \"7d\"}")
                .contains("Content-Type: application/json");
        assertThat(template.stats("parked").failed()).isEqualTo(1);
        assertThat(http.post(app, "/actuator/localqueue/mail/explode").statusCode()).isEqualTo(404);
        assertThat(http.post(app, "/actuator/localqueue/nope/pause").statusCode()).isEqualTo(404);
    }

    @Test
    void queueActionsNeedWriteAccess() throws Exception {
        ConfigurableApplicationContext app = start();
        deadLetter(app, "parked");

        assertThat(http.post(app, "/actuator/localqueue/parked/retry-dead-letters", "{}").statusCode())
                .isIn(403, 404, 405);
        assertThat(app.getBean(LocalQueueTemplate.class).stats("parked").failed()).isEqualTo(1);
    }

    @Test
    void readsOfQueuesTheApplicationDoesNotKnowCreateNone() throws Exception {
        ConfigurableApplicationContext app = start();

        assertThat(http.get(app, "/actuator/localqueue/typo").statusCode()).isEqualTo(404);
        assertThat(http.get(app, "/actuator/localqueue/typo").statusCode()).isEqualTo(404);

        assertThat(JSON.readTree(http.get(app, "/actuator/localqueue").body()).path("queues").has("typo")).isFalse();
        assertThat(app.getBean(LocalQueueRegistry.class).queueNames()).doesNotContain("typo");
        assertThat(app.getBean(LocalQueueRegistry.class).database().queueNames()).doesNotContain("typo");
    }

    // ---------------------------------------------------------------- support

    @Test
    void recurringJobsAreListedWithTheirTicksAndEnabledDisabledAndRunByHand(CapturedOutput output) throws Exception {
        DIGESTS.set(0);
        ConfigurableApplicationContext app = start(RecurringApp.class,
                "management.endpoint.localqueue.access=unrestricted");
        JsonNode listed = JSON.readTree(http.get(app, "/actuator/localqueue").body()).path("recurring").get(0);
        assertThat(listed.path("id").asString()).isEqualTo("digest");
        assertThat(listed.path("cron").asString()).isEqualTo("0 0 3 * * *");
        assertThat(listed.path("enabled").asBoolean()).isTrue();
        assertThat(listed.path("orphaned").asBoolean()).isFalse();
        assertThat(listed.path("nextTick").asString()).endsWith("T03:00:00Z");

        HttpResponse<String> disabled = http.post(app, "/actuator/localqueue/recurring/digest/disable", "{}");
        assertThat(JSON.readTree(disabled.body()).path("affected").asInt()).isEqualTo(1);
        assertThat(JSON.readTree(http.post(app, "/actuator/localqueue/recurring/digest/disable", "{}").body())
                .path("message").asString()).isEqualTo("was disabled already");
        JsonNode alone = JSON.readTree(http.get(app, "/actuator/localqueue/recurring").body()).get(0);
        assertThat(alone.path("enabled").asBoolean()).isFalse();
        assertThat(alone.path("nextTick").isNull()).isTrue();
        assertThat(output).contains("Operator action disable on recurring job 'digest': now disabled for every process");

        JsonNode ran = JSON.readTree(http.post(app, "/actuator/localqueue/recurring/digest/run-now", "{}").body());
        assertThat(ran.path("jobId").asLong()).isPositive();
        await().atMost(Duration.ofSeconds(10)).until(() -> DIGESTS.get() == 1);
        assertThat(JSON.readTree(http.post(app, "/actuator/localqueue/recurring/digest/enable", "{}").body())
                .path("affected").asInt()).isEqualTo(1);

        assertThat(JSON.readTree(http.post(app, "/actuator/localqueue/recurring/digest/delete", "{}").body())
                .path("affected").asInt()).isEqualTo(1);
        assertThat(JSON.readTree(http.get(app, "/actuator/localqueue/recurring").body()).size()).isZero();
        assertThat(http.post(app, "/actuator/localqueue/recurring/nope/run-now", "{}").statusCode()).isEqualTo(404);
        assertThat(http.post(app, "/actuator/localqueue/recurring/digest/explode", "{}").statusCode())
                .isEqualTo(404);
    }

    static final AtomicInteger DIGESTS = new AtomicInteger();

    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration(exclude = DataSourceAutoConfiguration.class)
    static class RecurringApp {
        @Bean
        Digest digest() {
            return new Digest();
        }
    }

    static class Digest {
        @Recurring(id = "digest", cron = "0 0 3 * * *")
        void send(Instant tick) {
            DIGESTS.incrementAndGet();
        }
    }

    private ConfigurableApplicationContext start(String... extra) {
        return start(App.class, extra);
    }

    private static long deadLetter(ConfigurableApplicationContext app, String queueName) {
        SimpleQueue<Object> queue = app.getBean(LocalQueueRegistry.class).queue(queueName);
        long id = queue.put("poison");
        Job<Object> job = queue.getNowait();
        queue.fail(job, "operator test");
        return id;
    }

    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration(exclude = DataSourceAutoConfiguration.class)
    static class App {
        @Bean
        MailListener mailListener() {
            return new MailListener();
        }
    }

    static class MailListener {
        @QueueListener(queue = "mail")
        void handle(String message) {
        }
    }
}
