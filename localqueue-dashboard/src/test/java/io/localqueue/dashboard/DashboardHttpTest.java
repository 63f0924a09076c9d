package io.localqueue.dashboard;

import static io.localqueue.dashboard.DashboardApps.get;
import static io.localqueue.dashboard.DashboardApps.post;
import static io.localqueue.dashboard.DashboardApps.queues;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.localqueue.EnqueueItem;
import io.localqueue.JobState;
import io.localqueue.SimpleQueue;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The dashboard over HTTP in a running application: the page under a strict Content-Security-Policy, the overview, keyset
 * pages of jobs, a job's detail through the redaction, read-only refusals, actions with their audit events, and the
 * properties that remove or misconfigure it.
 */
class DashboardHttpTest extends RunningAppTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();


    @Test
    void thePageHoldsNoScriptOfItsOwnAndIsServedUnderAStrictPolicy() throws Exception {
        app = DashboardApps.start(dir);

        HttpResponse<String> page = get(app, "/localqueue");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Security-Policy")).hasValueSatisfying(policy ->
                assertThat(policy).contains("script-src 'self'").doesNotContain("unsafe"));
        assertThat(page.body()).contains("<script type=\"module\" src=\"/localqueue/assets/dashboard.js\"></script>")
                .doesNotContain("<script>").doesNotContain("onclick=").doesNotContain("style=");
        assertThat(page.body()).contains("name=\"localqueue-read-only\" content=\"true\"");
        assertThat(get(app, "/localqueue/assets/dashboard.js").statusCode()).isEqualTo(200);
        assertThat(get(app, "/localqueue/assets/dashboard.css").statusCode()).isEqualTo(200);
    }

    @Test
    void theOverviewShowsEachQueueWithItsCountsAndState() throws Exception {
        app = DashboardApps.start(dir);
        SimpleQueue<Object> emails = queues(app).queue("emails");
        emails.put(Map.of("to", "a@example.com"));
        emails.put(Map.of("to", "b@example.com"));
        emails.fail(emails.getNowait(), "smtp down");
        emails.pause();

        JsonNode overview = JSON.readTree(get(app, "/localqueue/api/overview").body());
        JsonNode queue = overview.get("queues").get(0);
        assertThat(queue.get("name").asString()).isEqualTo("emails");
        assertThat(queue.get("ready").asLong()).isEqualTo(1);
        assertThat(queue.get("dead").asLong()).isEqualTo(1);
        assertThat(queue.get("paused").asBoolean()).isTrue();
        assertThat(overview.get("readOnly").asBoolean()).isTrue();
    }

    @Test
    void jobsArePagedByCursorAndADetailShowsOnlyWhatTheRedactionLetsThrough() throws Exception {
        app = DashboardApps.start(dir, "localqueue.dashboard.redacted-keys=iban-number,card",
                "localqueue.dashboard.count-cap=6");
        SimpleQueue<Object> emails = queues(app).queue("emails");
        for (int i = 0; i < 5; i++) {
            emails.put(Map.of("n", i));
        }
        long secret = emails.putMany(List.of(EnqueueItem.<Object>of(Map.of("to", "x@example.com",
                        "smtp", Map.of("password", "hunter2", "user", "bob"), "card", "4111"))
                .withHeaders(Map.of("Authorization", "Bearer abc", "trace", "t-1")))).get(0);

        JsonNode first = JSON.readTree(get(app, "/localqueue/api/jobs?queue=emails&state=ready&limit=4").body());
        assertThat(first.get("count").asLong()).isEqualTo(6);
        assertThat(first.get("capped").asBoolean()).as("exactly the cap is not more").isFalse();
        assertThat(first.get("jobs")).hasSize(4);
        JsonNode second = JSON.readTree(get(app, "/localqueue/api/jobs?queue=emails&state=ready&limit=4&after="
                + first.get("next").asString()).body());
        assertThat(second.get("jobs")).hasSize(2);
        assertThat(second.get("next").isNull()).isTrue();
        assertThat(second.get("jobs").get(1).get("preview").asString()).doesNotContain("hunter2", "4111");

        JsonNode detail = JSON.readTree(get(app, "/localqueue/api/job?queue=emails&id=" + secret).body());
        assertThat(detail.get("payload").asString()).contains("x@example.com", "bob", SecretKeyRedactor.MASK)
                .doesNotContain("hunter2").doesNotContain("4111");
        assertThat(detail.get("headers").get("Authorization").asString()).isEqualTo(SecretKeyRedactor.MASK);
        assertThat(detail.get("headers").get("trace").asString()).isEqualTo("t-1");

        emails.put("one more");
        JsonNode capped = JSON.readTree(get(app, "/localqueue/api/jobs?queue=emails&limit=1").body());
        assertThat(capped.get("count").asLong()).isEqualTo(6);
        assertThat(capped.get("capped").asBoolean()).isTrue();
        assertThat(get(app, "/localqueue/api/job?queue=emails&id=999999").statusCode()).isEqualTo(404);
        assertThat(get(app, "/localqueue/api/jobs?queue=nope").statusCode()).isEqualTo(404);
        HttpResponse<String> badState = get(app, "/localqueue/api/jobs?queue=emails&state=sleeping");
        assertThat(badState.statusCode()).isEqualTo(400);
        assertThat(badState.body()).contains("state");
        assertThat(get(app, "/localqueue/api/jobs?queue=emails&after=garbage").statusCode()).isEqualTo(400);
    }

    @Test
    void aReadOnlyDashboardRefusesEveryActionNamingThePropertyAndAuditsTheRefusal() throws Exception {
        app = DashboardApps.start(dir);
        SimpleQueue<Object> emails = queues(app).queue("emails");
        emails.put("x");
        emails.fail(emails.getNowait(), "boom");

        HttpResponse<String> refused = post(app, "/localqueue/api/action",
                "{\"action\":\"retry\",\"queue\":\"emails\",\"all\":true}");
        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(refused.body()).contains("localqueue.dashboard.read-only=false");
        assertThat(emails.stats().failed()).isEqualTo(1);
        DashboardActionEvent event = app.getBean(DashboardApps.Audit.class).events.get(0);
        assertThat(event.succeeded()).isFalse();
        assertThat(event.user()).isEqualTo("anonymous");
        assertThat(event.target()).isEqualTo("queue 'emails'");
    }

    @Test
    void actionsChangeOnlyTheJobsTheyNameAndAreAudited() throws Exception {
        app = DashboardApps.start(dir, "localqueue.dashboard.read-only=false", "localqueue.dashboard.action-limit=2");
        SimpleQueue<Object> emails = queues(app).queue("emails");
        for (int i = 0; i < 4; i++) {
            emails.put(i);
        }
        long[] dead = new long[3];
        for (int i = 0; i < 3; i++) {
            io.localqueue.Job<Object> job = emails.getNowait();
            dead[i] = job.id();
            emails.fail(job, "boom");
        }
        long waiting = emails.listJobs(JobState.READY, null, 10).get(0).id();

        assertThat(post(app, "/localqueue/api/action", "{\"action\":\"retry\",\"queue\":\"emails\",\"ids\":["
                + dead[0] + "]}").statusCode()).isEqualTo(200);
        assertThat(emails.findJob(dead[0]).orElseThrow().state()).isEqualTo(JobState.READY);
        HttpResponse<String> all = post(app, "/localqueue/api/action",
                "{\"action\":\"delete\",\"queue\":\"emails\",\"all\":true}");
        assertThat(all.body()).contains("2 job(s) deleted").contains("action limit of 2");
        assertThat(emails.stats().failed()).isZero();
        assertThat(post(app, "/localqueue/api/action", "{\"action\":\"cancel\",\"queue\":\"emails\",\"ids\":["
                + waiting + "]}").body()).contains("1 job(s) cancelled");
        assertThat(emails.findJob(waiting)).isEmpty();
        assertThat(post(app, "/localqueue/api/action", "{\"action\":\"pause\",\"queue\":\"emails\"}").statusCode())
                .isEqualTo(200);
        assertThat(emails.isPaused()).isTrue();

        HttpResponse<String> unknown = post(app, "/localqueue/api/action", "{\"action\":\"explode\",\"queue\":\"emails\"}");
        assertThat(unknown.statusCode()).isEqualTo(400);
        assertThat(unknown.body()).contains("explode");
        HttpResponse<String> both = post(app, "/localqueue/api/action",
                "{\"action\":\"retry\",\"queue\":\"emails\",\"ids\":[" + dead[0] + "],\"all\":true}");
        assertThat(both.statusCode()).as("ids and all together act on nothing").isEqualTo(400);
        assertThat(both.body()).contains("not both");
        HttpResponse<String> missing = post(app, "/localqueue/api/action",
                "{\"action\":\"cancel\",\"queue\":\"emails\",\"ids\":[99999]}");
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(missing.body()).contains("has no job [99999]");
        HttpResponse<String> notJson = post(app, "/localqueue/api/action", "{\"action\": ");
        assertThat(notJson.statusCode()).isEqualTo(400);
        assertThat(notJson.body()).contains("not the JSON the dashboard reads");
        HttpResponse<String> twoTargets = post(app, "/localqueue/api/action",
                "{\"action\":\"pause\",\"queue\":\"emails\",\"recurring\":\"x\"}");
        assertThat(twoTargets.body()).contains("one target");
        assertThat(get(app, "/localqueue/api/job?queue=emails&id=abc").body()).contains("must be a whole number");
        HttpResponse<String> wholeQueue = post(app, "/localqueue/api/action",
                "{\"action\":\"resume\",\"queue\":\"emails\",\"ids\":[1]}");
        assertThat(wholeQueue.statusCode()).isEqualTo(400);
        assertThat(wholeQueue.body()).contains("acts on the whole queue");
        assertThat(emails.isPaused()).isTrue();
        List<DashboardActionEvent> audit = app.getBean(DashboardApps.Audit.class).events;
        assertThat(audit).extracting(DashboardActionEvent::action)
                .containsExactly("retry", "delete", "cancel", "pause", "explode", "retry", "cancel", "(unreadable)",
                        "pause", "resume");
        assertThat(audit.get(0).jobIds()).containsExactly(dead[0]);
        assertThat(audit.get(4).succeeded()).isFalse();
    }

    @Test
    void anActionTheStoreFailsAnswersWithTheCauseAndIsAudited() throws Exception {
        app = DashboardApps.start(dir, "localqueue.dashboard.read-only=false");
        queues(app).queue("emails").put("x");
        app.getBean(io.localqueue.LocalQueueDatabase.class).close();

        HttpResponse<String> failed = post(app, "/localqueue/api/action", "{\"action\":\"pause\",\"queue\":\"emails\"}");
        assertThat(failed.statusCode()).isEqualTo(500);
        assertThat(failed.body()).contains("failed: ");
        assertThat(app.getBean(DashboardApps.Audit.class).events).singleElement()
                .satisfies(event -> assertThat(event.succeeded()).isFalse());
    }

    @Test
    void aNameInARequestCannotForgeALineOfTheAuditLog() {
        assertThat(DashboardActions.printable("x\n2026-12-07 INFO forged\r\tline"))
                .isEqualTo("x\\u000a2026-12-07 INFO forged\\u000d\\u0009line").doesNotContain("\n");
        assertThat(DashboardActions.printable("plain 'queue' é")).isEqualTo("plain 'queue' é");
    }

    @Test
    void theDashboardCanBeMovedOrRemoved() throws Exception {
        app = DashboardApps.start(dir, "localqueue.dashboard.path=/ops/jobs");
        assertThat(get(app, "/ops/jobs").body()).contains("/ops/jobs/assets/dashboard.js");
        assertThat(get(app, "/localqueue").statusCode()).isEqualTo(404);
        DashboardApps.close(app);

        app = DashboardApps.start(dir.resolve("second"), "localqueue.dashboard.enabled=false");
        assertThat(get(app, "/localqueue").statusCode()).isEqualTo(404);
        assertThat(get(app, "/localqueue/api/overview").statusCode()).isEqualTo(404);
    }

    @Test
    void aBadPropertyFailsTheStartNamingIt() {
        for (String bad : List.of("localqueue.dashboard.path=localqueue", "localqueue.dashboard.path=/a/",
                "localqueue.dashboard.path=/a/..",
                "localqueue.dashboard.refresh-interval=10ms", "localqueue.dashboard.page-size=0",
                "localqueue.dashboard.action-limit=0", "localqueue.dashboard.redacted-keys=--")) {
            String property = bad.substring(0, bad.indexOf('='));
            assertThatThrownBy(() -> DashboardApps.start(dir.resolve("bad"), bad)).as(bad)
                    .hasStackTraceContaining(property);
        }
    }
}
