package io.localqueue.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.localqueue.EnqueueItem;
import io.localqueue.EnqueueOptions;
import io.localqueue.Job;
import io.localqueue.JobState;
import io.localqueue.SimpleQueue;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;

/**
 * The dashboard in a real browser against a running application: an operator opens it, goes into a queue, opens a
 * dead letter and retries it, pauses and resumes the queue; a read-only page and a page under Spring Security refuse
 * what they must.
 */
class DashboardBrowserTest extends RunningAppTest {

    private Browser browser;

    @AfterEach
    void closeBrowser() {
        if (browser != null) {
            browser.close();
        }
    }

    @Test
    void anOperatorFindsADeadLetterRetriesItAndPausesTheQueue() {
        app = DashboardApps.start(dir.resolve("queues"), "localqueue.dashboard.read-only=false",
                "localqueue.dashboard.refresh-interval=1s");
        SimpleQueue<Object> emails = DashboardApps.queues(app).queue("emails");
        long dead = seed(emails);
        browser = Browser.start(dir.resolve("profile"));

        browser.open(DashboardApps.base(app) + "/localqueue");
        browser.shown("tr[data-queue='emails']");
        browser.waitForText("tr[data-queue='emails'] td.num a.dead", "1");

        browser.click("tr[data-queue='emails'] td a");
        browser.shown("tr[data-job]");
        assertThat(browser.driver.getCurrentUrl()).endsWith("/localqueue?queue=emails");
        browser.screenshot("dashboard-jobs");
        browser.click("a[data-state='failed']");
        browser.shown("tr[data-job='" + dead + "']");
        assertThat(browser.driver.getCurrentUrl()).as("the filter lives in the URL").contains("state=failed");
        browser.click("tr[data-job='" + dead + "'] td a");
        browser.waitForText("#payload", "smtp.example.com");
        assertThat(browser.shown("#payload").getText()).contains(SecretKeyRedactor.MASK).doesNotContain("hunter2");
        browser.screenshot("dashboard-dead-letter");
        browser.click("button[data-action='retry']");
        browser.waitForText("#message", "moved back to the queue");
        assertThat(emails.findJob(dead).orElseThrow().state()).isEqualTo(JobState.READY);

        browser.open(DashboardApps.base(app) + "/localqueue");
        browser.click("tr[data-queue='emails'] button[data-action='pause']");
        browser.shown("tr[data-queue='emails'] button[data-action='resume']");
        assertThat(emails.isPaused()).isTrue();
        browser.click("tr[data-queue='emails'] button[data-action='resume']");
        browser.shown("tr[data-queue='emails'] button[data-action='pause']");
        assertThat(emails.isPaused()).isFalse();
    }

    @Test
    void theOverviewShowsListenersRecurringJobsAndSubscriptionsAndActsOnThem() {
        app = DashboardApps.start(dir.resolve("queues"), List.of(DashboardApps.App.class, BusyApp.class,
                DashboardBusTest.Handlers.class), "localqueue.dashboard.read-only=false");
        seed(DashboardApps.queues(app).queue("emails"));
        app.getBean(io.localqueue.bus.EventBus.class).dispatch(new DashboardBusTest.SignedUp("ada", "s3cret"));
        browser = Browser.start(dir.resolve("profile"));

        browser.open(DashboardApps.base(app) + "/localqueue");
        browser.shown("tr[data-recurring='nightly-report']");
        assertThat(browser.shown("#listeners").getText()).contains("report-writer", "running");
        browser.waitForText("tr[data-subscription='mailer']", "mailer");
        browser.waitForText("tr[data-queue='emails'] td.num a.dead", "1");
        browser.screenshot("dashboard-queues");

        browser.click("tr[data-recurring='nightly-report'] button[data-action='run-now']");
        browser.waitForText("#message", "enqueued job");
        browser.click("tr[data-recurring='nightly-report'] button[data-action='disable']");
        browser.shown("tr[data-recurring='nightly-report'] button[data-action='enable']");
        browser.click("tr[data-subscription='mailer'] td a");
        browser.waitForText("tr[data-delivery]", "user.signed-up");
        assertThat(browser.shown("tr[data-delivery]").getText()).doesNotContain("s3cret");
    }

    @Test
    void aReadOnlyPageOffersNoActionAndTheApplicationRefusesOne() {
        app = DashboardApps.start(dir.resolve("queues"));
        SimpleQueue<Object> emails = DashboardApps.queues(app).queue("emails");
        long dead = seed(emails);
        browser = Browser.start(dir.resolve("profile"));

        browser.open(DashboardApps.base(app) + "/localqueue?queue=emails");
        browser.shown("input[data-find='job']").sendKeys(dead + "" + org.openqa.selenium.Keys.ENTER);
        browser.waitForText("#payload", "smtp.example.com");
        assertThat(browser.driver.getCurrentUrl()).endsWith("/localqueue?queue=emails&job=" + dead);
        assertThat(browser.shown("button[data-action='retry']").isEnabled()).isFalse();
        assertThat(browser.postFromPage("/localqueue/api/action",
                "{\"action\":\"retry\",\"queue\":\"emails\",\"ids\":[" + dead + "]}", true)).isEqualTo(403);
        assertThat(emails.findJob(dead).orElseThrow().state()).isEqualTo(JobState.FAILED);
    }

    @Test
    void underSpringSecurityAnActionWithoutTheTokenIsRefusedAndThePageSendsIt() {
        app = DashboardApps.start(dir.resolve("queues"), List.of(SecuredApp.class),
                "localqueue.dashboard.read-only=false");
        SimpleQueue<Object> emails = DashboardApps.queues(app).queue("emails");
        seed(emails);
        browser = Browser.start(dir.resolve("profile"));

        browser.open(DashboardApps.base(app) + "/login");
        browser.shown("input[name='username']").sendKeys("admin");
        browser.driver.findElement(By.cssSelector("input[name='password']")).sendKeys("admin-pw");
        browser.driver.findElement(By.cssSelector("button[type='submit']")).click();
        browser.open(DashboardApps.base(app) + "/localqueue");
        browser.shown("tr[data-queue='emails']");

        assertThat(browser.postFromPage("/localqueue/api/action", "{\"action\":\"pause\",\"queue\":\"emails\"}",
                false)).isEqualTo(403);
        assertThat(emails.isPaused()).isFalse();
        browser.click("tr[data-queue='emails'] button[data-action='pause']");
        await().alias("the page's own request carries the token").atMost(Duration.ofSeconds(10))
                .until(emails::isPaused);
    }

    /** Three waiting jobs, one of them delayed, and a dead letter with a secret in its payload; returns its id. */
    private static long seed(SimpleQueue<Object> emails) {
        long dead = emails.putMany(List.of(EnqueueItem.<Object>of(Map.of("to", "linus@example.com",
                "smtp", Map.of("host", "smtp.example.com", "password", "hunter2")))
                .withHeaders(Map.of("trace", "4bf92f35")))).get(0);
        Job<Object> job = emails.getNowait();
        emails.fail(job, "SMTPAuthenticationError: 535 authentication failed");
        emails.putMany(List.of(
                EnqueueItem.<Object>of(Map.of("to", "ada@example.com", "template", "welcome")),
                EnqueueItem.<Object>of(Map.of("to", "grace@example.com", "template", "receipt"))
                        .withOptions(EnqueueOptions.defaults().priority(-1)),
                EnqueueItem.<Object>of(Map.of("to", "alan@example.com", "template", "reminder"))
                        .withOptions(EnqueueOptions.defaults().delay(Duration.ofHours(2)))));
        return dead;
    }
}
