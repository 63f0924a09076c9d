package io.localqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * An operator's reads of a queue: keyset pages of one state that continue after a cursor (waiting jobs in claim
 * order, the others by due time), one job by id in any state with its headers, counts that stop at a cap, and the
 * deletion of one dead letter; a seeded walk checks every page against the order the rows must come in.
 */
class JobBrowsingTest extends QueueTestBase {

    @Test
    void aWatchSeesTheJobsPutAfterItsBoundAndFollowsTheirStates() {
        SimpleQueue<Object> mail = open(SimpleQueue.builder(database()).name("mail").clock(clock));
        SimpleQueue<Object> other = open(SimpleQueue.builder(database()).name("other").clock(clock));
        long before = mail.put("before");
        LocalQueueDatabase handle = database();
        long bound = handle.lastJobId();
        assertThat(bound).isEqualTo(before);

        long first = mail.putMany(List.of(EnqueueItem.<Object>of("first").withHeaders(Map.of("trace", "t-1")))).get(0);
        other.put("elsewhere");
        long second = mail.put("second", null, EnqueueOptions.defaults().delay(Duration.ofMinutes(1)));
        long third = mail.put("third");
        long through = handle.lastJobId();

        List<StoredJob<Object>> put = mail.listJobsPut(bound, through, 10);
        assertThat(put).extracting(StoredJob::id).containsExactly(first, second, third);
        assertThat(put).extracting(StoredJob::state).containsExactly(JobState.READY, JobState.DELAYED, JobState.READY);
        assertThat(put.get(0).headers()).isEqualTo(Map.of("trace", "t-1"));
        assertThat(mail.listJobsPut(bound, through, 2)).extracting(StoredJob::id).containsExactly(first, second);
        assertThat(mail.listJobsPut(second, through, 10)).extracting(StoredJob::id).containsExactly(third);
        assertThat(mail.listJobsPut(bound, second - 1, 10)).extracting(StoredJob::id).containsExactly(first);
        assertThat(mail.listJobsPut(through, through, 10)).isEmpty();

        mail.ack(mail.getNowait());
        mail.fail(mail.getNowait(), "boom");
        List<StoredJob<Object>> followed = mail.findJobs(List.of(third, 999_999L, before, first, other.listJobs(
                JobState.READY, null, 1).get(0).id()));
        assertThat(followed).extracting(StoredJob::id).as("this queue's, in id order")
                .containsExactly(before, first, third);
        assertThat(followed).extracting(StoredJob::state).containsExactly(JobState.ACKED, JobState.FAILED,
                JobState.READY);
        assertThat(followed.get(1).lastError()).isEqualTo("boom");
        assertThat(mail.findJobs(List.of())).isEmpty();

        assertThatThrownBy(() -> mail.listJobsPut(-1, through, 10)).isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("afterId");
        assertThatThrownBy(() -> mail.listJobsPut(0, through, 0)).isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("limit");
        List<Long> tooMany = java.util.stream.LongStream.rangeClosed(1, SimpleQueue.MAX_PAGE + 1).boxed().toList();
        assertThatThrownBy(() -> mail.findJobs(tooMany)).isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("ids");
    }

    @Test
    void eachStateIsListedWithWhatAnOperatorNeedsToSee() {
        SimpleQueue<Object> queue = open(SimpleQueue.builder(database()).name("mail").clock(clock));
        long ready = queue.putMany(List.of(EnqueueItem.<Object>of(Map.of("to", "a@example.com"), "order-1")
                .withHeaders(Map.of("trace", "t-1")).withOptions(EnqueueOptions.defaults().priority(3)
                        .concurrencyKey("tenant-1")))).get(0);
        long delayed = queue.put("later", null, EnqueueOptions.defaults().delay(Duration.ofMinutes(5)));
        long leased = queue.put("leased", null, EnqueueOptions.defaults().priority(-5));
        long failed = queue.put("failed", null, EnqueueOptions.defaults().priority(-4));
        Job<Object> lease = queue.getNowait();
        queue.fail(queue.getNowait(), "boom");

        StoredJob<Object> first = only(queue.listJobs(JobState.READY, null, 10));
        assertThat(first.id()).isEqualTo(ready);
        assertThat(first.jobId()).isEqualTo("order-1");
        assertThat(first.data()).isEqualTo(Map.of("to", "a@example.com"));
        assertThat(first.headers()).isEqualTo(Map.of("trace", "t-1"));
        assertThat(first.priority()).isEqualTo(3);
        assertThat(first.concurrencyKey()).isEqualTo("tenant-1");
        assertThat(first.dueAt()).isEqualTo(clock.instant());
        assertThat(first.leaseUntil()).isNull();
        assertThat(first.state()).isEqualTo(JobState.READY);

        assertThat(only(queue.listJobs(JobState.DELAYED, null, 10)).id()).isEqualTo(delayed);
        StoredJob<Object> underLease = only(queue.listJobs(JobState.LEASED, null, 10));
        assertThat(underLease.id()).isEqualTo(leased);
        assertThat(underLease.leaseUntil()).isEqualTo(lease.leaseExpiresAt());
        assertThat(underLease.attempts()).isEqualTo(1);
        StoredJob<Object> dead = only(queue.listJobs(JobState.FAILED, null, 10));
        assertThat(dead.id()).isEqualTo(failed);
        assertThat(dead.lastError()).isEqualTo("boom");
        assertThat(dead.failureReason()).isNotNull();
        queue.ack(lease);
        assertThat(only(queue.listJobs(JobState.ACKED, null, 10)).id()).isEqualTo(leased);
        assertThat(queue.listJobs(JobState.LEASED, null, 10)).isEmpty();

        clock.advance(Duration.ofMinutes(5));
        assertThat(queue.listJobs(JobState.READY, null, 10)).extracting(StoredJob::id)
                .as("due now, in claim order").containsExactly(delayed, ready);
    }

    @Test
    void aJobIsFoundByIdInAnyStateButNotThroughAnotherQueue() {
        SimpleQueue<Object> queue = open(SimpleQueue.builder(database()).name("mail").clock(clock));
        SimpleQueue<Object> other = open(SimpleQueue.builder(database()).name("other").clock(clock));
        long waiting = queue.putMany(List.of(EnqueueItem.<Object>of("job").withHeaders(Map.of("k", "v"))
                .withOptions(EnqueueOptions.defaults().delay(Duration.ofSeconds(10))))).get(0);
        long foreign = other.put("foreign");

        StoredJob<Object> found = queue.findJob(waiting).orElseThrow();
        assertThat(found.state()).isEqualTo(JobState.DELAYED);
        assertThat(found.headers()).isEqualTo(Map.of("k", "v"));
        assertThat(found.queue()).isEqualTo("mail");
        assertThat(queue.findJob(foreign)).isEmpty();
        assertThat(queue.findJob(999_999)).isEmpty();
        clock.advance(Duration.ofSeconds(10));
        assertThat(queue.findJob(waiting).orElseThrow().state()).isEqualTo(JobState.READY);
        queue.fail(queue.getNowait(), "x");
        assertThat(queue.findJob(waiting).orElseThrow().state()).isEqualTo(JobState.FAILED);
    }

    @Test
    void aPayloadTheSerializerCannotReadIsShownRawWithTheReason() {
        SimpleQueue<byte[]> raw = open(SimpleQueue.builder(database(), new RawBytesSerializer()).name("mail")
                .clock(clock));
        long id = raw.put(new byte[] {'{', 'x'});
        SimpleQueue<Object> queue = open(SimpleQueue.builder(database()).name("mail").clock(clock));

        StoredJob<Object> job = queue.findJob(id).orElseThrow();
        assertThat(job.decoded()).isFalse();
        assertThat(job.data()).isNull();
        assertThat(job.rawPayload()).containsExactly('{', 'x');
        assertThat(job.decodeError()).isNotBlank();
    }

    @Test
    void countsStopAtTheirCap() {
        SimpleQueue<Object> queue = open(SimpleQueue.builder(database()).name("mail").clock(clock));
        List<EnqueueItem<Object>> items = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            items.add(EnqueueItem.of(i));
        }
        queue.putMany(items);
        queue.put("later", null, EnqueueOptions.defaults().delay(Duration.ofMinutes(1)));

        assertThat(queue.countJobs(JobState.READY, 1000)).isEqualTo(30);
        assertThat(queue.countJobs(JobState.READY, 10)).isEqualTo(10);
        assertThat(queue.countJobs(JobState.DELAYED, 10)).isEqualTo(1);
        assertThat(queue.countJobs(JobState.FAILED, 10)).isZero();
        assertThatThrownBy(() -> queue.countJobs(JobState.READY, 0)).isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("cap");
        assertThatThrownBy(() -> queue.listJobs(JobState.READY, null, 0))
                .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("limit");
        assertThatThrownBy(() -> queue.listJobs(JobState.READY, null, SimpleQueue.MAX_PAGE + 1))
                .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("limit");
    }

    @Test
    void aDeadLetterIsDeletedAloneAndNothingElseIs() {
        SimpleQueue<Object> queue = open(SimpleQueue.builder(database()).name("mail").clock(clock));
        SimpleQueue<Object> other = open(SimpleQueue.builder(database()).name("other").clock(clock));
        long dead = queue.putMany(List.of(EnqueueItem.<Object>of("dead").withHeaders(Map.of("k", "v")))).get(0);
        long waiting = queue.put("waiting");
        queue.fail(queue.getNowait(), "boom");
        long foreignDead = other.put("other-dead");
        other.fail(other.getNowait(), "x");

        assertThat(queue.deleteFailed(waiting)).as("waiting").isFalse();
        assertThat(queue.deleteFailed(foreignDead)).as("another queue's").isFalse();
        assertThat(queue.deleteFailed(dead)).isTrue();
        assertThat(queue.deleteFailed(dead)).as("a second time").isFalse();
        assertThat(queue.stats()).isEqualTo(new QueueStats(1, 0, 0, 0));
        assertThat(queue.findJob(dead)).isEmpty();
    }

    @Test
    void aCursorThatIsNotOneIsRefusedNamingIt() {
        assertThat(JobCursor.parse("3.1700000000000.42")).isEqualTo(
                new JobCursor(3, Instant.ofEpochMilli(1_700_000_000_000L), 42));
        assertThat(JobCursor.parse(new JobCursor(-7, Instant.ofEpochMilli(5), 9).toString()))
                .isEqualTo(new JobCursor(-7, Instant.ofEpochMilli(5), 9));
        for (String bad : new String[] {"", "1.2", "a.b.c", "1.2.3.4"}) {
            assertThatThrownBy(() -> JobCursor.parse(bad)).isInstanceOf(InvalidArgumentException.class)
                    .hasMessageContaining("cursor");
        }
    }

    /**
     * A seeded walk: jobs of random priorities (prioritized or not) and due times, some claimed, some failed, some
     * acknowledged; every state is read in pages of a random size, each continuing from the last cursor, and must
     * give exactly the state's jobs in its order, once each.
     */
    @Test
    void pagesWalkEveryStateInItsOrderOnceEach() {
        long seed = Long.getLong("localqueue.test.seed", System.nanoTime());
        System.out.println("JobBrowsingTest seed: " + seed + " (replay with -Dlocalqueue.test.seed=" + seed + ")");
        Random random = new Random(seed);
        SimpleQueue<Object> queue = open(SimpleQueue.builder(database()).name("mail").clock(clock));
        boolean prioritized = random.nextBoolean();
        List<EnqueueItem<Object>> items = new ArrayList<>();
        for (int i = 0; i < 150; i++) {
            EnqueueOptions options = EnqueueOptions.defaults();
            if (prioritized && random.nextInt(3) > 0) {
                options = options.priority(random.nextInt(5) - 2);
            }
            if (random.nextInt(3) == 0) {
                options = options.delay(Duration.ofSeconds(1 + random.nextInt(4)));
            } else if (random.nextInt(4) == 0) {
                options = options.delay(Duration.ZERO);
            }
            items.add(EnqueueItem.<Object>of(i).withOptions(options));
            if (random.nextInt(10) == 0) {
                queue.putMany(items);
                items.clear();
                clock.advance(Duration.ofMillis(random.nextInt(3)));
            }
        }
        queue.putMany(items);
        int claims = random.nextInt(40);
        for (int i = 0; i < claims; i++) {
            Job<Object> job = queue.getNowait();
            switch (random.nextInt(3)) {
                case 0 -> queue.ack(job);
                case 1 -> queue.fail(job, "boom");
                default -> { }
            }
        }
        clock.advance(Duration.ofMillis(random.nextInt(2500)));

        for (JobState state : JobState.values()) {
            List<StoredJob<Object>> expected = everyJobIn(queue, state);
            List<StoredJob<Object>> walked = new ArrayList<>();
            JobCursor after = null;
            while (true) {
                int size = 1 + random.nextInt(12);
                List<StoredJob<Object>> page = queue.listJobs(state, after, size);
                walked.addAll(page);
                if (page.size() < size) {
                    break;
                }
                after = page.get(page.size() - 1).cursor();
            }
            assertThat(walked).extracting(StoredJob::id).as("%s, seed %d", state, seed)
                    .containsExactlyElementsOf(expected.stream().map(StoredJob::id).toList());
            assertThat(queue.countJobs(state, 1000)).as("%s count, seed %d", state, seed).isEqualTo(expected.size());
        }
    }

    /** Every job of a state by id, in the order the state's pages must give them. */
    private List<StoredJob<Object>> everyJobIn(SimpleQueue<Object> queue, JobState state) {
        List<StoredJob<Object>> all = new ArrayList<>();
        for (long id = 1; id <= 200; id++) {
            queue.findJob(id).filter(job -> job.state() == state).ifPresent(all::add);
        }
        Comparator<StoredJob<Object>> byDue = Comparator.comparing(StoredJob::dueAt);
        Comparator<StoredJob<Object>> order = state == JobState.READY || state == JobState.DELAYED
                ? Comparator.<StoredJob<Object>>comparingInt(StoredJob::priority).thenComparing(byDue)
                : byDue;
        all.sort(order.thenComparingLong(StoredJob::id));
        return all;
    }

    private static <T> T only(List<T> list) {
        assertThat(list).hasSize(1);
        return list.get(0);
    }
}
