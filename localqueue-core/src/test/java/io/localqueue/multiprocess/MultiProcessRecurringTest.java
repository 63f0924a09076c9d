package io.localqueue.multiprocess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.localqueue.Job;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.RecurringJob;
import io.localqueue.RecurringJobs;
import io.localqueue.SimpleQueue;
import io.localqueue.testsupport.ChildProcess;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * One every-second recurring job fired by three application JVMs at once: each tick enqueues its job exactly once, and
 * none is lost, over more than twenty ticks, while one of the JVMs is killed with {@code kill -9} half way. On the
 * SQLite file here; a subclass runs it on a PostgreSQL schema, each child a host of its own.
 */
@Tag("file-only")
class MultiProcessRecurringTest extends MultiProcessTestBase {

    private static final int APPLICATIONS = 3;
    private static final int TICKS = 24;

    /** Where the database lives, as {@link MaintenanceChild#database(String)} opens it. */
    String target() {
        return dir.toString();
    }

    @Test
    void everyTickRunsExactlyOnceAcrossProcessesAndAKilledOneLosesNone() {
        try (LocalQueueDatabase database = MaintenanceChild.database(target());
             SimpleQueue<Object> beats = SimpleQueue.builder(database).name("beats").build();
             RecurringJobs recurring = RecurringJobs.on(database)) {
            List<ChildProcess> applications = new ArrayList<>();
            for (int i = 0; i < APPLICATIONS; i++) {
                applications.add(children.start("application-" + i, RecurringChild.class, target()));
            }
            applications.forEach(application -> application.expect(QueueChild.READY));
            ChildProcesses.sendAll(applications, QueueChild.GO);
            recurring.schedule(RecurringJob.builder("beat", "* * * * * *").allowOverlap(true)
                    .enqueue(beats, "beat").build());

            await().atMost(Duration.ofSeconds(60)).until(() -> beats.stats().ready() >= TICKS / 3);
            applications.get(0).killHard();
            await().atMost(Duration.ofSeconds(90)).until(() -> beats.stats().ready() >= TICKS);
            recurring.disable("beat");
            Instant disabledAt = Instant.now();
            AtomicLong seen = new AtomicLong(-1);
            await().pollInterval(Duration.ofMillis(500)).during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(15))
                    .alias("the running processes stop firing once this one disabled the schedule")
                    .until(() -> {
                        long ready = beats.stats().ready();
                        return seen.getAndSet(ready) == ready;
                    });
            recurring.enable("beat");
            await().atMost(Duration.ofSeconds(10)).alias("and fire again once it enabled it")
                    .until(() -> beats.stats().ready() > seen.get());
            recurring.disable("beat");
            for (ChildProcess application : applications.subList(1, APPLICATIONS)) {
                application.send(QueueChild.STOP);
                application.expect(QueueChild.DONE);
            }

            List<Instant> ticks = new ArrayList<>();
            for (long i = beats.stats().ready(); i > 0; i--) {
                Job<Object> job = beats.getNowait();
                ticks.add(Instant.parse(job.headers().get("localqueue.recurring.tick")));
                beats.ack(job);
            }
            List<Instant> sorted = ticks.stream().filter(tick -> tick.isBefore(disabledAt)).sorted().toList();
            assertThat(ticks).as("each tick once").doesNotHaveDuplicates().hasSizeGreaterThan(TICKS);
            assertThat(sorted).hasSizeGreaterThanOrEqualTo(TICKS - 1);
            for (int i = 1; i < sorted.size(); i++) {
                assertThat(Duration.between(sorted.get(i - 1), sorted.get(i))).as("no tick lost after %s",
                        sorted.get(i - 1)).isEqualTo(Duration.ofSeconds(1));
            }
        }
    }
}
