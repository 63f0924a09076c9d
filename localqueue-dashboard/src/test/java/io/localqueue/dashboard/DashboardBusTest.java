package io.localqueue.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.localqueue.bus.BusEvent;
import io.localqueue.bus.EventBus;
import io.localqueue.bus.RejectException;
import io.localqueue.spring.EventHandler;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * With an event bus the dashboard shows its subscriptions and their dead letters through the redaction, and replays
 * and pauses a subscription; without one the page has no bus section.
 */
class DashboardBusTest extends RunningAppTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();


    @Test
    void aSubscriptionsDeadLetterIsShownMaskedAndReplayed() throws Exception {
        app = DashboardApps.start(dir, List.of(DashboardApps.App.class, Handlers.class),
                "localqueue.dashboard.read-only=false");
        app.getBean(EventBus.class).dispatch(new SignedUp("ada", "s3cret-token"));

        await().alias("the handler's refusal is a dead letter").atMost(Duration.ofSeconds(30)).until(() ->
                JSON.readTree(DashboardApps.get(app, "/localqueue/api/dead-deliveries?subscription=mailer").body())
                        .get("deadLetters").size() == 1);
        JsonNode dead = JSON.readTree(DashboardApps.get(app,
                "/localqueue/api/dead-deliveries?subscription=mailer").body()).get("deadLetters").get(0);
        assertThat(dead.get("eventType").asString()).isEqualTo("user.signed-up");
        assertThat(dead.get("preview").asString()).contains("ada").doesNotContain("s3cret-token");
        await().atMost(Duration.ofSeconds(15)).until(() -> subscription().get("dead").asLong() == 1);

        assertThat(DashboardApps.post(app, "/localqueue/api/action", "{\"action\":\"retry\",\"subscription\":"
                + "\"mailer\",\"ids\":[" + dead.get("id").asLong() + "]}").body())
                .contains("1 dead letter(s) moved back to the subscription");
        assertThat(DashboardApps.post(app, "/localqueue/api/action",
                "{\"action\":\"pause\",\"subscription\":\"mailer\"}").statusCode()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(15)).until(() -> subscription().get("paused").asBoolean());
        assertThat(DashboardApps.post(app, "/localqueue/api/action",
                "{\"action\":\"purge\",\"subscription\":\"mailer\"}").statusCode()).as("not an action of the page")
                .isEqualTo(400);
        assertThat(DashboardApps.get(app, "/localqueue/api/dead-deliveries?subscription=nope").statusCode())
                .isEqualTo(404);
        assertThat(DashboardApps.post(app, "/localqueue/api/action", "{\"action\":\"retry\",\"subscription\":"
                + "\"mailer\",\"ids\":[99999]}").statusCode()).as("no such dead letter").isEqualTo(404);
    }

    private JsonNode subscription() throws Exception {
        JsonNode overview = JSON.readTree(DashboardApps.get(app, "/localqueue/api/overview").body());
        for (JsonNode subscription : overview.get("bus").get("subscriptions")) {
            if (subscription.get("name").asString().equals("mailer")) {
                return subscription;
            }
        }
        throw new AssertionError("no subscription 'mailer' in " + overview);
    }

    @BusEvent(name = "user.signed-up")
    record SignedUp(String user, String apiToken) {
    }

    /** A handler that refuses every event for good. */
    @Configuration(proxyBeanMethods = false)
    static class Handlers {

        @Bean
        Mailer mailer() {
            return new Mailer();
        }
    }

    static final class Mailer {

        @EventHandler(subscription = "mailer")
        void send(SignedUp event) {
            throw new RejectException("mailbox does not exist");
        }
    }
}
