package io.localqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Recurring jobs on both stores, on a clock the test moves: a tick enqueues its job once, at its time and never before,
 * whichever handle fires it; missed ticks run once or are passed over, never in a burst; an unfinished job holds the
 * next tick back unless overlap is allowed; and enable, disable, run-now, changes and delete act at once.
 */
class RecurringJobsTest extends QueueTestBase {

    private static final String EVERY_MINUTE = "0 * * * * *";

    private SimpleQueue<Object> reports() {
        return open(SimpleQueue.builder(database()).name("reports").clock(clock)
                .delivery(new DeliveryPolicy(Duration.ofDays(1), 3)));
    }

    private RecurringJobs recurring() {
        return closeAfterTest(RecurringJobs.on(database(), clock));
    }

    private static RecurringJob.Builder everyMinute(SimpleQueue<Object> queue) {
        return RecurringJob.builder("report", EVERY_MINUTE).enqueue(queue, "make the report");
    }

    @Test
    void aStoredRecurringJobIsListedWithItsNextTick() {
        RecurringJobs recurring = recurring();
        RecurringJob stored = recurring.schedule(everyMinute(reports()).zone(ZoneId.of("Europe/Paris")).build());

        assertThat(stored.id()).isEqualTo("report");
        assertThat(stored.zone()).isEqualTo(ZoneId.of("Europe/Paris"));
        assertThat(stored.queue()).isEqualTo("reports");
        assertThat(stored.isEnabled()).isTrue();
        assertThat(stored.lastTick()).isNull();
        assertThat(stored.nextTick()).isEqualTo(clock.instant().plusSeconds(60));
        assertThat(recurring.list()).extracting(RecurringJob::id).containsExactly("report");
        assertThat(recurring.find("other")).isNull();
    }

    @Test
    void aTickEnqueuesItsJobOnceAtItsTimeAndNeverBefore() {
        SimpleQueue<Object> reports = reports();
        RecurringJobs recurring = recurring();
        recurring.schedule(everyMinute(reports).build());
        Instant tick = clock.instant().plusSeconds(60);

        clock.advance(Duration.ofMillis(59_999));
        assertThat(recurring.runDue()).isEqualTo(tick.toEpochMilli());
        assertThat(reports.stats().ready()).as("not a millisecond early").isZero();

        clock.advance(Duration.ofMillis(1));
        recurring.runDue();
        recurring.runDue();
        try (RecurringJobs another = RecurringJobs.on(database(), clock)) {
            another.runDue();
        }

        assertThat(reports.stats().ready()).as("once, whichever handle fires it").isEqualTo(1);
        Job<Object> job = reports.getNowait();
        assertThat(job.data()).isEqualTo("make the report");
        assertThat(job.headers()).containsEntry("localqueue.recurring.id", "report")
                .containsEntry("localqueue.recurring.tick", tick.toString());
        RecurringJob after = recurring.find("report");
        assertThat(after.lastTick()).isEqualTo(tick);
        assertThat(after.lastJobId()).isEqualTo(job.id());
        assertThat(after.nextTick()).isEqualTo(tick.plusSeconds(60));
    }

    @Test
    void afterDowntimeTheLastMissedTickRunsOnceAndTheOthersNever() {
        SimpleQueue<Object> reports = reports();
        RecurringJobs recurring = recurring();
        recurring.schedule(everyMinute(reports).build());

        clock.advance(Duration.ofMinutes(90).plusSeconds(30));
        recurring.runDue();
        recurring.runDue();

        assertThat(reports.stats().ready()).as("one job, not ninety").isEqualTo(1);
        assertThat(reports.getNowait().headers()).containsEntry("localqueue.recurring.tick",
                Instant.parse("2030-01-01T01:30:00Z").toString());
        assertThat(recurring.find("report").nextTick()).isEqualTo(Instant.parse("2030-01-01T01:31:00Z"));
    }

    @Test
    void ticksALittleLateFireEachInTurnAndAMissedOneBeforeThemDoesNot() {
        SimpleQueue<Object> reports = reports();
        RecurringJobs recurring = recurring();
        recurring.schedule(RecurringJob.builder("beat", "* * * * * *").allowOverlap(true).enqueue(reports, "beat")
                .build());

        clock.advance(Duration.ofSeconds(15)); // ticks 1 to 15 s; those of 1 to 4 s are over 10 s late
        recurring.runDue();

        List<String> ticks = new ArrayList<>();
        for (long i = reports.stats().ready(); i > 0; i--) {
            ticks.add(reports.getNowait().headers().get("localqueue.recurring.tick"));
        }
        List<String> expected = new ArrayList<>();
        for (int second = 5; second <= 15; second++) {
            expected.add(TestClock.START.plusSeconds(second).toString());
        }
        assertThat(ticks).containsExactlyElementsOf(expected);
    }

    @Test
    void aProcessThatStartsAfterDowntimeCountsTheTicksBeforeItsStartAsMissedHoweverRecent() {
        SimpleQueue<Object> reports = reports();
        SimpleQueue<Object> skipped = open(SimpleQueue.builder(database()).name("skipped").clock(clock));
        RecurringJobs before = recurring();
        before.schedule(RecurringJob.builder("beat", "* * * * * *").allowOverlap(true).enqueue(reports, "beat")
                .build());
        before.schedule(RecurringJob.builder("skipping", "* * * * * *").allowOverlap(true)
                .missedTicks(RecurringJob.MissedTicks.SKIP).enqueue(skipped, "beat").build());
        before.close(); // every process stops

        clock.advance(Duration.ofMillis(24_500)); // ticks of 1 to 24 s fall while none runs
        RecurringJobs restarted = recurring();
        restarted.runDue();

        assertThat(reports.stats().ready()).as("the last missed tick once, not the ten of the last 10 s")
                .isEqualTo(1);
        assertThat(reports.getNowait().headers()).containsEntry("localqueue.recurring.tick",
                TestClock.START.plusSeconds(24).toString());
        assertThat(skipped.stats().ready()).as("missed ticks skipped, however recent").isZero();
        clock.advance(Duration.ofMillis(500));
        restarted.runDue();
        assertThat(skipped.stats().ready()).as("the first tick after the start").isEqualTo(1);
    }

    @Test
    void theSkipPolicyPassesMissedTicksOverButRunsATickThatIsOnlyALittleLate() {
        SimpleQueue<Object> reports = reports();
        RecurringJobs recurring = recurring();
        recurring.schedule(RecurringJob.builder("report", "0 0 * * * *").enqueue(reports, "hourly")
                .missedTicks(RecurringJob.MissedTicks.SKIP).build());

        clock.advance(Duration.ofHours(3).plusSeconds(11));
        recurring.runDue();
        assertThat(reports.stats().ready()).as("the tick of 03:00 is 11 s late: missed, as those before it").isZero();
        assertThat(recurring.find("report").lastTick()).isEqualTo(Instant.parse("2030-01-01T03:00:00Z"));

        clock.advance(Duration.ofMinutes(59).plusSeconds(58)); // 04:00:09, the tick of 04:00 is 9 s late
        recurring.runDue();
        assertThat(reports.stats().ready()).isEqualTo(1);
        assertThat(recurring.find("report").missedTicks()).isEqualTo(RecurringJob.MissedTicks.SKIP);
    }

    @Test
    void aTickIsPassedOverWhileThePreviousJobWaitsUnlessOverlapIsAllowed() {
        SimpleQueue<Object> reports = reports();
        RecurringJobs recurring = recurring();
        recurring.schedule(everyMinute(reports).build());
        clock.advance(Duration.ofMinutes(1));
        recurring.runDue();
        Job<Object> running = reports.getNowait();

        clock.advance(Duration.ofMinutes(1));
        recurring.runDue();
        assertThat(reports.stats().ready()).as("the job of the tick before still runs").isZero();
        assertThat(recurring.find("report").lastTick()).isEqualTo(clock.instant());

        reports.ack(running);
        clock.advance(Duration.ofMinutes(1));
        recurring.runDue();
        assertThat(reports.stats().ready()).isEqualTo(1);

        recurring.schedule(everyMinute(reports).allowOverlap(true).build());
        clock.advance(Duration.ofMinutes(1));
        recurring.runDue();
        assertThat(reports.stats().ready()).as("allowed: the waiting job does not hold it back").isEqualTo(2);
    }

    @Test
    void aDisabledJobDoesNotFireAndOnceEnabledItsScheduleStartsFromThen() {
        SimpleQueue<Object> reports = reports();
        RecurringJobs recurring = recurring();
        recurring.schedule(everyMinute(reports).build());

        assertThat(recurring.disable("report")).isTrue();
        assertThat(recurring.disable("report")).as("already disabled").isFalse();
        assertThat(recurring.find("report").nextTick()).isNull();
        clock.advance(Duration.ofMinutes(10));
        recurring.runDue();
        assertThat(reports.stats().ready()).isZero();

        assertThat(recurring.enable("report")).isTrue();
        recurring.runDue();
        assertThat(reports.stats().ready()).as("the ticks it was disabled for never run").isZero();
        assertThat(recurring.find("report").nextTick()).isEqualTo(clock.instant().plusSeconds(60));
        assertThat(recurring.enable("missing")).isFalse();
    }

    @Test
    void runNowEnqueuesAtOnceWithoutMovingTheSchedule() {
        SimpleQueue<Object> reports = reports();
        RecurringJobs recurring = recurring();
        recurring.schedule(everyMinute(reports).build());
        recurring.disable("report");

        Long first = recurring.runNow("report");
        Long second = recurring.runNow("report");

        assertThat(first).isNotNull();
        assertThat(second).as("a second run by hand in the same millisecond").isNotNull().isNotEqualTo(first);
        Job<Object> job = reports.getNowait();
        assertThat(job.id()).isEqualTo(first);
        assertThat(job.headers()).containsEntry("localqueue.recurring.manual", "true");
        RecurringJob after = recurring.find("report");
        assertThat(after.lastTick()).as("the schedule did not move").isNull();
        assertThat(after.lastJobId()).isEqualTo(second);
        assertThat(recurring.runNow("missing")).isNull();
    }

    @Test
    void aChangedCronStartsTheScheduleAgainAndNoTickOfTheOldOneRunsLate() {
        SimpleQueue<Object> reports = reports();
        RecurringJobs recurring = recurring();
        recurring.schedule(everyMinute(reports).build());
        clock.advance(Duration.ofSeconds(90));

        RecurringJob changed = recurring.schedule(RecurringJob.builder("report", "0 0 * * * *")
                .enqueue(reports, "hourly").build());
        recurring.runDue();

        assertThat(reports.stats().ready()).as("the old schedule's tick of 00:01 does not run").isZero();
        assertThat(changed.nextTick()).isEqualTo(Instant.parse("2030-01-01T01:00:00Z"));
        RecurringJob unchanged = recurring.schedule(RecurringJob.builder("report", "0 0 * * * *")
                .enqueue(reports, "hourly").build());
        assertThat(unchanged.nextTick()).isEqualTo(changed.nextTick());
    }

    @Test
    void aDeletedJobNoLongerFiresAndItsEnqueuedJobsStay() {
        SimpleQueue<Object> reports = reports();
        RecurringJobs recurring = recurring();
        recurring.schedule(everyMinute(reports).build());
        clock.advance(Duration.ofMinutes(1));
        recurring.runDue();

        assertThat(recurring.delete("report")).isTrue();
        assertThat(recurring.delete("report")).isFalse();
        clock.advance(Duration.ofMinutes(5));
        recurring.runDue();

        assertThat(recurring.list()).isEmpty();
        assertThat(reports.stats().ready()).isEqualTo(1);
    }

    @Test
    void daylightSavingChangesGiveTheTicksCronExpressionGivesAsScheduledDoes() {
        SimpleQueue<Object> reports = reports();
        RecurringJobs recurring = recurring();
        ZoneId paris = ZoneId.of("Europe/Paris");
        clock.advance(Duration.between(clock.instant(), Instant.parse("2030-03-29T12:00:00Z")));
        recurring.schedule(RecurringJob.builder("night", "0 30 2 * * *").zone(paris)
                .allowOverlap(true).enqueue(reports, "night").build());

        List<String> spring = ticksBetween(recurring, reports, "2030-03-29T12:00:00Z", 4, paris);
        recurring.disable("night");
        clock.advance(Duration.between(clock.instant(), Instant.parse("2030-10-25T12:00:00Z")));
        recurring.enable("night");
        List<String> autumn = ticksBetween(recurring, reports, "2030-10-25T12:00:00Z", 4, paris);

        assertThat(spring).as("02:30 does not exist on 31 March: no tick that day")
                .containsExactly("2030-03-30T02:30+01:00", "2030-04-01T02:30+02:00", "2030-04-02T02:30+02:00");
        assertThat(autumn).as("02:30 comes twice on 27 October: a tick at each")
                .containsExactly("2030-10-26T02:30+02:00", "2030-10-27T02:30+02:00", "2030-10-27T02:30+01:00",
                        "2030-10-28T02:30+01:00", "2030-10-29T02:30+01:00");
    }

    /** Moves the clock from {@code start} in steps of half an hour for {@code days}, firing, and reads the ticks. */
    private List<String> ticksBetween(RecurringJobs recurring, SimpleQueue<Object> reports, String start, int days,
                                      ZoneId zone) {
        clock.advance(Duration.between(clock.instant(), Instant.parse(start)));
        recurring.runDue();
        for (int step = 0; step < days * 48; step++) {
            clock.advance(Duration.ofMinutes(30));
            recurring.runDue();
        }
        List<String> ticks = new ArrayList<>();
        for (long i = reports.stats().ready(); i > 0; i--) {
            Job<Object> job = reports.getNowait();
            ticks.add(Instant.parse(job.headers().get("localqueue.recurring.tick")).atZone(zone).toOffsetDateTime()
                    .toString());
            reports.ack(job);
        }
        return ticks;
    }

    @Test
    void aBadDefinitionIsRefusedNamingWhatIsWrong() {
        SimpleQueue<Object> reports = reports();

        assertThatThrownBy(() -> RecurringJob.builder("report", "every minute"))
                .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("cron 'every minute'");
        assertThatThrownBy(() -> RecurringJob.builder("report", "0 0 25 * * *"))
                .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("cron");
        assertThatThrownBy(() -> RecurringJob.builder(" ", EVERY_MINUTE))
                .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("id");
        assertThatThrownBy(() -> RecurringJob.builder("report", EVERY_MINUTE).build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("enqueue(queue, payload)");
        assertThat(RecurringJob.builder("report", "@hourly").enqueue(reports, "x").build().cron())
                .isEqualTo("@hourly");
    }
}
