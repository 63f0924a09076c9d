package io.localqueue.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.localqueue.EnqueueItem;
import io.localqueue.Job;
import io.localqueue.JobState;
import io.localqueue.SimpleQueue;
import io.localqueue.internal.store.postgresql.PostgresServer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The dashboard of an application whose queues live on PostgreSQL reads and acts as on SQLite. */
class DashboardOnPostgresTest extends RunningAppTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();


    @Test
    void pagesDetailsAndActionsWorkOnAServer() throws Exception {
        app = DashboardApps.start(dir, "localqueue.store=postgresql",
                "localqueue.postgresql.url=" + PostgresServer.url(),
                "localqueue.postgresql.schema=" + PostgresServer.freshSchema(), "localqueue.postgresql.username=",
                "localqueue.postgresql.password=", "localqueue.dashboard.read-only=false");
        SimpleQueue<Object> emails = DashboardApps.queues(app).queue("emails");
        long dead = emails.putMany(List.of(EnqueueItem.<Object>of(Map.of("to", "ada@example.com", "token", "t0k3n"))
                .withHeaders(Map.of("trace", "abc")))).get(0);
        Job<Object> job = emails.getNowait();
        emails.fail(job, "boom");
        for (int i = 0; i < 5; i++) {
            emails.put(Map.of("n", i));
        }

        JsonNode first = JSON.readTree(DashboardApps.get(app, "/localqueue/api/jobs?queue=emails&limit=3").body());
        assertThat(first.get("count").asLong()).isEqualTo(5);
        JsonNode second = JSON.readTree(DashboardApps.get(app, "/localqueue/api/jobs?queue=emails&limit=3&after="
                + first.get("next").asString()).body());
        assertThat(second.get("jobs")).hasSize(2);
        JsonNode detail = JSON.readTree(DashboardApps.get(app, "/localqueue/api/job?queue=emails&id=" + dead).body());
        assertThat(detail.get("state").asString()).isEqualTo("failed");
        assertThat(detail.get("payload").asString()).contains("ada@example.com").doesNotContain("t0k3n");
        assertThat(detail.get("headers").get("trace").asString()).isEqualTo("abc");
        await().atMost(Duration.ofSeconds(15)).until(() -> JSON.readTree(DashboardApps.get(app,
                "/localqueue/api/overview").body()).get("queues").get(0).get("dead").asLong() == 1);

        assertThat(DashboardApps.post(app, "/localqueue/api/action", "{\"action\":\"retry\",\"queue\":\"emails\","
                + "\"all\":true}").body()).contains("1 job(s) moved back to the queue");
        assertThat(emails.findJob(dead).orElseThrow().state()).isEqualTo(JobState.READY);
    }
}
