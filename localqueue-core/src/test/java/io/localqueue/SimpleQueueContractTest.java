package io.localqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class SimpleQueueContractTest extends QueueTestBase {

    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final DeliveryPolicy POLICY = new DeliveryPolicy(LEASE, 3);

    /** The settling calls a delivery's receipt fences. */
    enum Transition {
        ACK {
            @Override
            void apply(SimpleQueue<Object> queue, Job<Object> job) {
                queue.ack(job);
            }
        },
        NACK {
            @Override
            void apply(SimpleQueue<Object> queue, Job<Object> job) {
                queue.nack(job);
            }
        },
        DELAYED_NACK {
            @Override
            void apply(SimpleQueue<Object> queue, Job<Object> job) {
                queue.nack(job, Duration.ofSeconds(5), "retry later");
            }
        },
        FAIL {
            @Override
            void apply(SimpleQueue<Object> queue, Job<Object> job) {
                queue.fail(job, "boom");
            }
        },
        EXTEND_LEASE {
            @Override
            void apply(SimpleQueue<Object> queue, Job<Object> job) {
                queue.extendLease(job, Duration.ofSeconds(10));
            }
        };

        abstract void apply(SimpleQueue<Object> queue, Job<Object> job);
    }

    // ---- put, get, ack -------------------------------------------------------------------------------------------

    @Test
    void putReturnsTheNewJobsId() {
        SimpleQueue<Object> queue = queue();

        long first = queue.put("a");
        long second = queue.put("b", null);
        long third = queue.put("c", "job-c", Duration.ZERO);

        assertThat(List.of(first, second, third)).doesNotHaveDuplicates().isSorted();
        assertThat(queue.getNowait().id()).isEqualTo(first);
        assertThat(queue.getNowait().id()).isEqualTo(second);
        assertThat(queue.getNowait().id()).isEqualTo(third);
    }

    @Test
    void getClaimsTheJobWithZeroAttemptsAndALease() {
        SimpleQueue<Object> queue = queue();
        long id = queue.put(Map.of("task", "x"));

        Job<Object> job = queue.getNowait();

        assertThat(job.id()).isEqualTo(id);
        assertThat(job.data()).isEqualTo(Map.of("task", "x"));
        assertThat(job.attempts()).isZero();
        assertThat(job.receipt()).isNotBlank();
        assertThat(job.leaseExpiresAt()).isEqualTo(clock.instant().plus(LEASE));
        assertThat(job.queueName()).isEqualTo(SimpleQueue.DEFAULT_NAME);
        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 1, 0, 0));
    }

    @Test
    void ackedJobIsDoneAndNeverRedelivered() {
        SimpleQueue<Object> queue = queue();
        queue.put("a");

        queue.ack(queue.getNowait());
        clock.advance(Duration.ofHours(1));

        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 0, 1, 0));
        assertThatThrownBy(queue::getNowait).isInstanceOf(QueueEmptyException.class);
        assertThat(queue.reclaimExpiredLeases()).isZero();
    }

    // ---- job ids ------------------------------------------------------------------------------------------------

    @Test
    void jobIdOfReadyJobReturnsExistingIdAndKeepsPayload() {
        SimpleQueue<Object> queue = queue();
        long id = queue.put("original", "job-1");

        assertThat(queue.put("changed", "job-1")).isEqualTo(id);

        assertThat(queue.stats()).isEqualTo(new QueueStats(1, 0, 0, 0));
        assertThat(queue.getNowait().data()).isEqualTo("original");
    }

    @Test
    void jobIdOfProcessingJobReturnsExistingIdAndLeavesTheLeaseAlone() {
        SimpleQueue<Object> queue = queue();
        long id = queue.put("original", "job-1");
        Job<Object> job = queue.getNowait();

        assertThat(queue.put("changed", "job-1")).isEqualTo(id);

        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 1, 0, 0));
        queue.ack(job);
    }

    @Test
    void jobIdOfAckedJobReturnsExistingIdAndDoesNotRequeueIt() {
        SimpleQueue<Object> queue = queue();
        long id = queue.put("original", "job-1");
        queue.ack(queue.getNowait());

        assertThat(queue.put("changed", "job-1")).isEqualTo(id);

        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 0, 1, 0));
        assertThatThrownBy(queue::getNowait).isInstanceOf(QueueEmptyException.class);
    }

    @Test
    void jobIdOfFailedJobReturnsExistingIdAndKeepsTheDeadLetter() {
        SimpleQueue<Object> queue = queue();
        long id = queue.put("original", "job-1");
        queue.fail(queue.getNowait());

        assertThat(queue.put("changed", "job-1")).isEqualTo(id);

        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 0, 0, 1));
        assertThat(queue.listFailed()).singleElement().satisfies(dead -> {
            assertThat(dead.id()).isEqualTo(id);
            assertThat(dead.data()).isEqualTo("original");
        });
    }

    @Test
    void sameJobIdInTwoQueuesGivesTwoJobs() {
        SimpleQueue<Object> emails = queue("emails");
        SimpleQueue<Object> invoices = queue("invoices");

        long emailId = emails.put("email", "job-1");
        long invoiceId = invoices.put("invoice", "job-1");

        assertThat(emailId).isNotEqualTo(invoiceId);
        assertThat(emails.getNowait().data()).isEqualTo("email");
        assertThat(invoices.getNowait().data()).isEqualTo("invoice");
    }

    // ---- putMany ------------------------------------------------------------------------------------------------

    @Test
    void putManyReturnsIdsInInputOrder() {
        SimpleQueue<Object> queue = queue();
        List<EnqueueItem<Object>> items = IntStream.range(0, 50)
                .mapToObj(i -> EnqueueItem.<Object>of("p" + i)).toList();

        List<Long> ids = queue.putMany(items);

        assertThat(ids).hasSize(50).doesNotHaveDuplicates();
        for (int i = 0; i < 50; i++) {
            Job<Object> job = queue.getNowait();
            assertThat(job.id()).isEqualTo(ids.get(i));
            assertThat(job.data()).isEqualTo("p" + i);
        }
    }

    @Test
    void putManyResolvesDuplicateJobIdsInsideTheBatchAndAgainstStorage() {
        SimpleQueue<Object> queue = queue();
        long stored = queue.put("stored", "job-1");

        List<Long> ids = queue.putMany(List.of(
                EnqueueItem.of("a"),
                EnqueueItem.of("duplicate of stored", "job-1"),
                EnqueueItem.of("b", "job-2"),
                EnqueueItem.of("duplicate of b", "job-2"),
                EnqueueItem.of("c", null)));

        assertThat(ids).hasSize(5);
        assertThat(ids.get(1)).isEqualTo(stored);
        assertThat(ids.get(3)).isEqualTo(ids.get(2));
        assertThat(List.of(ids.get(0), ids.get(2), ids.get(4))).doesNotHaveDuplicates().doesNotContain(stored);
        assertThat(queue.stats().ready()).isEqualTo(4);
        assertThat(drainData(queue)).containsExactly("stored", "a", "b", "c");
    }

    @Test
    void putManyOfEmptyListReturnsEmptyList() {
        SimpleQueue<Object> queue = queue();

        assertThat(queue.putMany(List.of())).isEmpty();
        assertThat(queue.putMany(List.of(), Duration.ZERO)).isEmpty();
        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 0, 0, 0));
    }

    @Test
    void putManyWritesNothingWhenOneItemCannotBeSerialized() {
        SimpleQueue<String> queue = open(SimpleQueue.builder(database(), new RefusingSerializer("poison")).clock(clock));
        queue.put("before");

        assertThatThrownBy(() -> queue.putMany(List.of(EnqueueItem.of("ok", "job-1"), EnqueueItem.of("poison"),
                EnqueueItem.of("ok too"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("items[1]");

        assertThat(queue.stats()).isEqualTo(new QueueStats(1, 0, 0, 0));
        long next = queue.put("after", "job-1");
        assertThat(queue.getNowait().data()).isEqualTo("before");
        assertThat(queue.getNowait().id()).isEqualTo(next);
    }

    // ---- get variants -------------------------------------------------------------------------------------------

    @Test
    void getNowaitOnEmptyQueueThrowsQueueEmpty() {
        SimpleQueue<Object> queue = queue();

        assertThatThrownBy(queue::getNowait).isInstanceOf(QueueEmptyException.class);
        assertThatThrownBy(() -> queue.get(Duration.ZERO)).isInstanceOf(QueueEmptyException.class);
    }

    @Test
    void getWithTimeoutOnEmptyQueueThrowsOnceTheTimeoutPasses() {
        SimpleQueue<Object> queue = queue();
        long start = System.nanoTime();

        assertThatThrownBy(() -> queue.get(Duration.ofMillis(200))).isInstanceOf(QueueEmptyException.class);

        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(190));
    }

    @Test
    void getWithTimeoutReturnsAnAvailableJob() {
        SimpleQueue<Object> queue = queue();
        long id = queue.put("a");

        assertThat(queue.get(Duration.ofSeconds(30)).id()).isEqualTo(id);
    }

    @Test
    void getWithoutTimeoutReturnsAnAvailableJob() {
        SimpleQueue<Object> queue = queue();
        long id = queue.put("a");

        assertThat(queue.get().id()).isEqualTo(id);
    }

    @Test
    void getWakesWhenADelayedJobBecomesDue() {
        SimpleQueue<Object> queue = open(SimpleQueue.builder(database()).delivery(POLICY));
        long id = queue.put("a");
        queue.nack(queue.getNowait(), Duration.ofMillis(300), null);

        Job<Object> job = assertTimeoutPreemptively(Threads.BOUND, () -> queue.get(Duration.ofMinutes(1)));

        assertThat(job.id()).isEqualTo(id);
        assertThat(job.attempts()).isEqualTo(1);
    }

    @Test
    void getWakesWhenALeaseExpires() {
        SimpleQueue<Object> queue = open(SimpleQueue.builder(database())
                .delivery(new DeliveryPolicy(Duration.ofMillis(300), 3)));
        long id = queue.put("a");
        queue.getNowait();

        Job<Object> job = assertTimeoutPreemptively(Threads.BOUND, () -> queue.get(Duration.ofMinutes(1)));

        assertThat(job.id()).isEqualTo(id);
        assertThat(job.attempts()).isEqualTo(1);
    }

    // ---- attempts, receipts, nack -------------------------------------------------------------------------------

    @Test
    void attemptsCountEarlierDeliveries() {
        SimpleQueue<Object> queue = queue();
        queue.put("a");

        List<Integer> attempts = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            Job<Object> job = queue.getNowait();
            attempts.add(job.attempts());
            queue.nack(job);
        }

        assertThat(attempts).containsExactly(0, 1, 2, 3);
    }

    @Test
    void everyDeliveryHasItsOwnReceipt() {
        SimpleQueue<Object> queue = queue();
        queue.put("a");
        queue.put("b");

        Job<Object> first = queue.getNowait();
        Job<Object> other = queue.getNowait();
        queue.nack(first);
        Job<Object> second = queue.getNowait();

        assertThat(second.id()).isEqualTo(first.id());
        assertThat(List.of(first.receipt(), second.receipt(), other.receipt())).doesNotHaveDuplicates();
    }

    @Test
    void nackReturnsTheJobAtOnceAheadOfNewerJobs() {
        SimpleQueue<Object> queue = queue();
        long older = queue.put("older");
        clock.advance(Duration.ofSeconds(1));
        long newer = queue.put("newer");
        Job<Object> job = queue.getNowait();
        clock.advance(Duration.ofSeconds(1));

        queue.nack(job);

        Job<Object> again = queue.getNowait();
        assertThat(again.id()).isEqualTo(older);
        assertThat(again.attempts()).isEqualTo(1);
        assertThat(queue.getNowait().id()).isEqualTo(newer);
    }

    @Test
    void delayedNackHidesTheJobUntilTheDelayPasses() {
        SimpleQueue<Object> queue = queue();
        long id = queue.put("a");
        queue.nack(queue.getNowait(), Duration.ofSeconds(10), "try later");

        assertThat(queue.stats()).isEqualTo(new QueueStats(1, 0, 0, 0));
        assertThatThrownBy(queue::getNowait).isInstanceOf(QueueEmptyException.class);
        clock.advance(Duration.ofSeconds(10).minusMillis(1));
        assertThatThrownBy(queue::getNowait).isInstanceOf(QueueEmptyException.class);
        clock.advance(Duration.ofMillis(1));

        Job<Object> job = queue.getNowait();
        assertThat(job.id()).isEqualTo(id);
        assertThat(job.attempts()).isEqualTo(1);
    }

    @Test
    void delayedNackPutsTheJobBehindJobsDueEarlier() {
        SimpleQueue<Object> queue = queue();
        long delayed = queue.put("delayed");
        queue.nack(queue.getNowait(), Duration.ofSeconds(10), null);
        clock.advance(Duration.ofSeconds(1));
        long newer = queue.put("newer");
        clock.advance(Duration.ofSeconds(9));

        assertThat(queue.getNowait().id()).isEqualTo(newer);
        assertThat(queue.getNowait().id()).isEqualTo(delayed);
    }

    @Test
    void nacksSpendTheRetryBudgetThenTheJobFailsAsRetriesExhausted() {
        SimpleQueue<Object> queue = queue(new DeliveryPolicy(LEASE, 2));
        long id = queue.put("a");

        for (int delivery = 0; delivery < 3; delivery++) {
            Job<Object> job = queue.getNowait();
            assertThat(job.attempts()).isEqualTo(delivery);
            queue.nack(job, Duration.ZERO, "error " + delivery);
        }

        assertThatThrownBy(queue::getNowait).isInstanceOf(QueueEmptyException.class);
        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 0, 0, 1));
        assertThat(queue.listFailed()).singleElement().satisfies(dead -> {
            assertThat(dead.id()).isEqualTo(id);
            assertThat(dead.reason()).isEqualTo(FailureReason.RETRIES_EXHAUSTED);
            assertThat(dead.attempts()).isEqualTo(3);
            assertThat(dead.lastError()).isEqualTo("error 2");
            assertThat(dead.data()).isEqualTo("a");
        });
    }

    @Test
    void expiredLeasesSpendTheRetryBudgetThenTheJobFailsAsRetriesExhausted() {
        SimpleQueue<Object> queue = queue(new DeliveryPolicy(LEASE, 2));
        long id = queue.put("a");

        for (int delivery = 0; delivery < 3; delivery++) {
            Job<Object> job = queue.getNowait();
            assertThat(job.id()).isEqualTo(id);
            assertThat(job.attempts()).isEqualTo(delivery);
            clock.advance(LEASE);
        }

        assertThatThrownBy(queue::getNowait).isInstanceOf(QueueEmptyException.class);
        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 0, 0, 1));
        assertThat(queue.listFailed()).singleElement().satisfies(dead -> {
            assertThat(dead.reason()).isEqualTo(FailureReason.RETRIES_EXHAUSTED);
            assertThat(dead.attempts()).isEqualTo(3);
        });
    }

    @Test
    void aLeaseAnotherWriterEndsWithinTheSameClockMillisecondIsStillReclaimed() throws Exception {
        SimpleQueue<Object> queue = queue();
        long id = queue.put("a");
        queue.getNowait();
        try (Connection connection = TestDatabases.connect(dir);
             PreparedStatement expire = connection.prepareStatement(
                     "UPDATE messages SET lease_until = ? WHERE id = ?")) {
            expire.setLong(1, clock.millis());
            expire.setLong(2, id);
            expire.executeUpdate();
        }

        Job<Object> again = queue.getNowait();

        assertThat(again.id()).isEqualTo(id);
        assertThat(again.attempts()).isEqualTo(1);
    }

    @Test
    void zeroRetriesMeansOneDelivery() {
        SimpleQueue<Object> queue = queue(new DeliveryPolicy(LEASE, 0));
        queue.put("a");

        queue.nack(queue.getNowait());

        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 0, 0, 1));
    }

    @Test
    void retryBudgetIsTheOneStoredWithTheJob() {
        SimpleQueue<Object> producer = queue(new DeliveryPolicy(LEASE, 0));
        SimpleQueue<Object> consumer = queue(new DeliveryPolicy(LEASE, 5));
        producer.put("a");

        consumer.nack(consumer.getNowait());

        assertThat(consumer.stats()).isEqualTo(new QueueStats(0, 0, 0, 1));
        assertThat(consumer.listFailed()).singleElement()
                .satisfies(dead -> assertThat(dead.reason()).isEqualTo(FailureReason.RETRIES_EXHAUSTED));
    }

    @Test
    void leaseComesFromTheClaimingQueue() {
        SimpleQueue<Object> producer = queue(new DeliveryPolicy(Duration.ofSeconds(5), 3));
        SimpleQueue<Object> consumer = queue(new DeliveryPolicy(Duration.ofMinutes(2), 3));
        producer.put("a");

        Job<Object> job = consumer.getNowait();

        assertThat(job.leaseExpiresAt()).isEqualTo(clock.instant().plus(Duration.ofMinutes(2)));
        clock.advance(Duration.ofMinutes(1));
        consumer.ack(job);
    }

    @Test
    void expiredLastLeaseSaysSoAndKeepsTheLastErrorOfAnEarlierNack() {
        SimpleQueue<Object> queue = queue(new DeliveryPolicy(LEASE, 1));
        queue.put("a");
        queue.nack(queue.getNowait(), Duration.ZERO, "first error");
        queue.getNowait();
        clock.advance(LEASE);

        assertThat(queue.reclaimExpiredLeases()).isEqualTo(1);

        assertThat(queue.listFailed()).singleElement().satisfies(dead -> {
            assertThat(dead.reason()).isEqualTo(FailureReason.RETRIES_EXHAUSTED);
            assertThat(dead.lastError()).isEqualTo("lease expired on delivery 2 of 2: the job was not settled before "
                    + "its lease ran out; before that: first error");
        });
    }

    // ---- fail ---------------------------------------------------------------------------------------------------

    @Test
    void failMakesADeadLetterWithExplicitPermanentFailure() {
        SimpleQueue<Object> queue = queue();
        Instant putAt = clock.instant();
        long id = queue.put(Map.of("task", "x"), "job-1");
        clock.advance(Duration.ofSeconds(5));
        Job<Object> job = queue.getNowait();
        Instant failedAt = clock.advance(Duration.ofSeconds(2));

        queue.fail(job, "cannot do it");

        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 0, 0, 1));
        assertThat(queue.listFailed()).singleElement().satisfies(dead -> {
            assertThat(dead.id()).isEqualTo(id);
            assertThat(dead.data()).isEqualTo(Map.of("task", "x"));
            assertThat(dead.rawPayload()).isEqualTo("{\"task\": \"x\"}".getBytes(StandardCharsets.UTF_8));
            assertThat(dead.attempts()).isEqualTo(1);
            assertThat(dead.reason()).isEqualTo(FailureReason.EXPLICIT_PERMANENT_FAILURE);
            assertThat(dead.lastError()).isEqualTo("cannot do it");
            assertThat(dead.failureCategory()).isNull();
            assertThat(dead.createdAt()).isEqualTo(putAt);
            assertThat(dead.updatedAt()).isEqualTo(failedAt);
            assertThat(dead.decodeError()).isNull();
            assertThat(dead.decoded()).isTrue();
        });
    }

    @Test
    void failWithoutErrorLeavesLastErrorEmpty() {
        SimpleQueue<Object> queue = queue();
        queue.put("a");

        queue.fail(queue.getNowait());

        assertThat(queue.listFailed()).singleElement().satisfies(dead -> {
            assertThat(dead.reason()).isEqualTo(FailureReason.EXPLICIT_PERMANENT_FAILURE);
            assertThat(dead.lastError()).isNull();
        });
    }

    // ---- leases -------------------------------------------------------------------------------------------------

    @Test
    void extendLeaseRenewsTheLeaseFromNow() {
        SimpleQueue<Object> queue = queue();
        queue.put("a");
        Job<Object> job = queue.getNowait();
        Instant now = clock.advance(Duration.ofSeconds(20));

        Instant expiry = queue.extendLease(job, Duration.ofSeconds(60));

        assertThat(expiry).isEqualTo(now.plusSeconds(60));
        assertThat(job.leaseExpiresAt()).isEqualTo(expiry);
    }

    @Test
    void extendedLeaseKeepsTheJobPastItsOriginalExpiry() {
        SimpleQueue<Object> queue = queue();
        queue.put("a");
        Job<Object> job = queue.getNowait();
        clock.advance(Duration.ofSeconds(20));
        queue.extendLease(job, Duration.ofSeconds(60));
        clock.advance(Duration.ofSeconds(40));

        assertThat(queue.reclaimExpiredLeases()).isZero();
        assertThatThrownBy(queue::getNowait).isInstanceOf(QueueEmptyException.class);
        queue.ack(job);
        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 0, 1, 0));
    }

    @Test
    void extendedLeaseExpiresAtItsNewExpiry() {
        SimpleQueue<Object> queue = queue();
        queue.put("a");
        Job<Object> job = queue.getNowait();
        queue.extendLease(job, Duration.ofSeconds(60));
        clock.advance(Duration.ofSeconds(60));

        assertThatThrownBy(() -> queue.ack(job)).isInstanceOf(LeaseExpiredException.class);
        assertThat(queue.getNowait().attempts()).isEqualTo(1);
    }

    @Test
    void extendLeaseCanShortenTheLease() {
        SimpleQueue<Object> queue = queue();
        long id = queue.put("a");
        Job<Object> job = queue.getNowait();

        queue.extendLease(job, Duration.ofSeconds(1));
        clock.advance(Duration.ofSeconds(1));

        assertThatThrownBy(() -> queue.ack(job)).isInstanceOf(LeaseExpiredException.class);
        assertThat(queue.getNowait().id()).isEqualTo(id);
    }

    @Test
    void jobExtendLeaseRenewsThroughItsQueue() {
        SimpleQueue<Object> queue = queue();
        queue.put("a");
        Job<Object> job = queue.getNowait();
        Instant now = clock.advance(Duration.ofSeconds(25));

        Instant expiry = job.extendLease(Duration.ofSeconds(90));

        assertThat(expiry).isEqualTo(now.plusSeconds(90));
        assertThat(job.leaseExpiresAt()).isEqualTo(expiry);
        clock.advance(Duration.ofSeconds(60));
        queue.ack(job);
    }

    @Test
    void leaseHoldsUntilTheMillisecondBeforeItsExpiry() {
        SimpleQueue<Object> queue = queue();
        queue.put("a");
        Job<Object> job = queue.getNowait();
        clock.advance(LEASE.minusMillis(1));

        queue.ack(job);

        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 0, 1, 0));
    }

    @Test
    void leaseIsLostExactlyAtItsExpiry() {
        SimpleQueue<Object> queue = queue();
        queue.put("a");
        Job<Object> job = queue.getNowait();
        clock.advance(LEASE);

        assertThatThrownBy(() -> queue.ack(job)).isInstanceOf(LeaseExpiredException.class);
    }

    @Test
    void jobExtendLeaseAfterExpiryIsRejected() {
        SimpleQueue<Object> queue = queue();
        queue.put("a");
        Job<Object> job = queue.getNowait();
        Instant original = job.leaseExpiresAt();
        clock.advance(LEASE.plusSeconds(1));

        assertThatThrownBy(() -> job.extendLease(Duration.ofSeconds(60))).isInstanceOf(LeaseExpiredException.class);
        assertThat(job.leaseExpiresAt()).isEqualTo(original);
    }

    @ParameterizedTest
    @EnumSource(Transition.class)
    void staleReceiptAfterLeaseExpiryIsRejectedBeforeRedelivery(Transition transition) {
        SimpleQueue<Object> queue = queue();
        long id = queue.put("a");
        Job<Object> job = queue.getNowait();
        clock.advance(LEASE.plusMillis(1));

        assertThatThrownBy(() -> transition.apply(queue, job)).isInstanceOf(LeaseExpiredException.class);

        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 1, 0, 0));
        Job<Object> redelivered = queue.getNowait();
        assertThat(redelivered.id()).isEqualTo(id);
        assertThat(redelivered.attempts()).isEqualTo(1);
    }

    @ParameterizedTest
    @EnumSource(Transition.class)
    void staleReceiptAfterRedeliveryIsRejected(Transition transition) {
        SimpleQueue<Object> queue = queue();
        queue.put("a");
        Job<Object> stale = queue.getNowait();
        clock.advance(LEASE);
        Job<Object> current = queue.getNowait();

        assertThatThrownBy(() -> transition.apply(queue, stale)).isInstanceOf(LeaseExpiredException.class);

        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 1, 0, 0));
        queue.ack(current);
        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 0, 1, 0));
    }

    @ParameterizedTest
    @EnumSource(Transition.class)
    void settledJobCannotBeSettledAgain(Transition transition) {
        SimpleQueue<Object> queue = queue();
        queue.put("a");
        Job<Object> job = queue.getNowait();
        queue.ack(job);

        assertThatThrownBy(() -> transition.apply(queue, job)).isInstanceOf(LeaseExpiredException.class);

        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 0, 1, 0));
    }

    @ParameterizedTest
    @EnumSource(Transition.class)
    void queueCannotSettleAnotherQueuesJob(Transition transition) {
        SimpleQueue<Object> owner = queue("owner");
        SimpleQueue<Object> stranger = queue("stranger");
        owner.put("a");
        stranger.put("b");
        Job<Object> job = owner.getNowait();

        assertThatThrownBy(() -> transition.apply(stranger, job)).isInstanceOf(LeaseExpiredException.class);

        assertThat(owner.stats()).isEqualTo(new QueueStats(0, 1, 0, 0));
        assertThat(stranger.stats()).isEqualTo(new QueueStats(1, 0, 0, 0));
        owner.ack(job);
    }

    // ---- reclaim ------------------------------------------------------------------------------------------------

    @Test
    void reclaimExpiredLeasesReturnsTheCountAndFailsExhaustedJobs() {
        SimpleQueue<Object> queue = queue(new DeliveryPolicy(LEASE, 1));
        long exhausted = queue.put("exhausted");
        long retried = queue.put("retried");
        assertThat(queue.getNowait().id()).isEqualTo(exhausted);
        clock.advance(LEASE);
        assertThat(queue.getNowait().id()).isEqualTo(exhausted);
        assertThat(queue.getNowait().id()).isEqualTo(retried);
        clock.advance(LEASE);

        assertThat(queue.reclaimExpiredLeases()).isEqualTo(2);

        assertThat(queue.stats()).isEqualTo(new QueueStats(1, 0, 0, 1));
        assertThat(queue.listFailed()).singleElement().satisfies(dead -> {
            assertThat(dead.id()).isEqualTo(exhausted);
            assertThat(dead.reason()).isEqualTo(FailureReason.RETRIES_EXHAUSTED);
            assertThat(dead.attempts()).isEqualTo(2);
        });
        assertThat(queue.reclaimExpiredLeases()).isZero();
    }

    @Test
    void reclaimExpiredLeasesLeavesLiveLeasesAlone() {
        SimpleQueue<Object> queue = queue();
        queue.put("a");
        Job<Object> job = queue.getNowait();
        clock.advance(LEASE.minusMillis(1));

        assertThat(queue.reclaimExpiredLeases()).isZero();

        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 1, 0, 0));
        queue.ack(job);
    }

    @Test
    void getReclaimsExpiredLeasesItself() {
        SimpleQueue<Object> queue = queue();
        long id = queue.put("a");
        queue.getNowait();
        clock.advance(LEASE);
        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 1, 0, 0));

        Job<Object> job = queue.get(Duration.ofSeconds(5));

        assertThat(job.id()).isEqualTo(id);
        assertThat(job.attempts()).isEqualTo(1);
        assertThat(job.leaseExpiresAt()).isEqualTo(clock.instant().plus(LEASE));
    }

    @Test
    void expiredLeaseKeepsItsPlaceAheadOfNewerJobs() {
        SimpleQueue<Object> queue = queue();
        long older = queue.put("older");
        clock.advance(Duration.ofSeconds(1));
        long newer = queue.put("newer");
        assertThat(queue.getNowait().id()).isEqualTo(older);
        clock.advance(LEASE);

        assertThat(queue.getNowait().id()).isEqualTo(older);
        assertThat(queue.getNowait().id()).isEqualTo(newer);
    }

    // ---- ready jobs ---------------------------------------------------------------------------------------------

    @Test
    void listReadyShowsWaitingJobsInClaimOrderWithoutClaimingThem() {
        SimpleQueue<Object> queue = queue();
        queue.putMany(List.of(EnqueueItem.of("retried"), EnqueueItem.of("leased"), EnqueueItem.of("waiting")));
        queue.nack(queue.getNowait(), Duration.ofHours(1), "busy");
        queue.getNowait();

        List<ReadyJob<Object>> ready = queue.listReady(10, 0);

        assertThat(ready).extracting(ReadyJob::data).containsExactly("waiting", "retried");
        assertThat(ready.get(0).attempts()).isZero();
        assertThat(ready.get(0).dueAt(clock.instant())).isTrue();
        assertThat(ready.get(0).createdAt()).isEqualTo(clock.instant());
        ReadyJob<Object> retried = ready.get(1);
        assertThat(retried.attempts()).isEqualTo(1);
        assertThat(retried.lastError()).isEqualTo("busy");
        assertThat(retried.availableAt()).isEqualTo(clock.instant().plus(Duration.ofHours(1)));
        assertThat(retried.dueAt(clock.instant())).isFalse();
        assertThat(queue.stats()).isEqualTo(new QueueStats(2, 1, 0, 0));
    }

    @Test
    void listReadyPagesAndRefusesNegativeBounds() {
        SimpleQueue<Object> queue = queue();
        queue.putMany(List.of(EnqueueItem.of("a"), EnqueueItem.of("b"), EnqueueItem.of("c")));

        assertThat(queue.listReady(2, 1)).extracting(ReadyJob::data).containsExactly("b", "c");
        assertThat(queue.listReady(0, 0)).isEmpty();
        assertThatThrownBy(() -> queue.listReady(-1, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("limit");
        assertThatThrownBy(() -> queue.listReady(1, -1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("offset");
    }

    @Test
    void listReadyReportsAnUndecodablePayloadInsteadOfThrowing() {
        byte[] garbage = {'{', '"', 't', 'o', '"', ':', ' ', (byte) 0xFF};
        SimpleQueue<byte[]> raw = open(SimpleQueue.builder(database(), new RawBytesSerializer()).name("mail").clock(clock));
        raw.put(garbage);

        ReadyJob<Object> broken = queue("mail").listReady(10, 0).get(0);

        assertThat(broken.decoded()).isFalse();
        assertThat(broken.decodeError()).isNotBlank();
        assertThat(broken.data()).isNull();
        assertThat(broken.rawPayload()).isEqualTo(garbage);
    }

    // ---- stats --------------------------------------------------------------------------------------------------

    @Test
    void statsCountEveryState() {
        SimpleQueue<Object> queue = queue();
        queue.putMany(List.of(EnqueueItem.of("acked"), EnqueueItem.of("failed"), EnqueueItem.of("leased"),
                EnqueueItem.of("delayed"), EnqueueItem.of("ready")));
        queue.ack(queue.getNowait());
        queue.fail(queue.getNowait());
        queue.getNowait();
        queue.nack(queue.getNowait(), Duration.ofHours(1), null);

        assertThat(queue.stats()).isEqualTo(new QueueStats(2, 1, 1, 1));
    }

    @Test
    void statsArePerQueue() {
        SimpleQueue<Object> first = queue("first");
        SimpleQueue<Object> second = queue("second");
        first.put("a");
        first.put("b");
        second.put("c");
        first.ack(first.getNowait());

        assertThat(first.stats()).isEqualTo(new QueueStats(1, 0, 1, 0));
        assertThat(second.stats()).isEqualTo(new QueueStats(1, 0, 0, 0));
    }

    // ---- persistence --------------------------------------------------------------------------------------------

    @Test
    void jobsAndIdsSurviveReopening() {
        SimpleQueue<Object> queue = queue();
        long first = queue.put(Map.of("n", 1), "job-1");
        long second = queue.put(Map.of("n", 2), "job-2");
        queue.close();

        SimpleQueue<Object> reopened = queue();

        assertThat(reopened.stats()).isEqualTo(new QueueStats(2, 0, 0, 0));
        assertThat(reopened.put(Map.of("n", 9), "job-2")).isEqualTo(second);
        Job<Object> job = reopened.getNowait();
        assertThat(job.id()).isEqualTo(first);
        assertThat(job.data()).isEqualTo(Map.of("n", 1));
        assertThat(reopened.getNowait().data()).isEqualTo(Map.of("n", 2));
    }

    @Test
    void jobLeasedBeforeReopeningIsRedeliveredOnceItsLeaseExpires() {
        SimpleQueue<Object> queue = queue();
        long id = queue.put("a");
        Job<Object> before = queue.getNowait();
        queue.close();

        SimpleQueue<Object> reopened = queue();
        assertThatThrownBy(reopened::getNowait).isInstanceOf(QueueEmptyException.class);
        clock.advance(LEASE);
        Job<Object> after = reopened.getNowait();

        assertThat(after.id()).isEqualTo(id);
        assertThat(after.attempts()).isEqualTo(1);
        assertThat(after.receipt()).isNotEqualTo(before.receipt());
        assertThatThrownBy(() -> reopened.ack(before)).isInstanceOf(LeaseExpiredException.class);
        reopened.ack(after);
    }

    // ---- dead letters -------------------------------------------------------------------------------------------

    @Test
    void listFailedPagesInIdOrder() {
        SimpleQueue<Object> queue = queue();
        List<Long> ids = queue.putMany(IntStream.range(0, 5).mapToObj(i -> EnqueueItem.<Object>of("p" + i)).toList());
        List<Job<Object>> jobs = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            jobs.add(queue.getNowait());
        }
        for (int i = 4; i >= 0; i--) {
            queue.fail(jobs.get(i));
        }

        assertThat(failedIds(queue.listFailed(2, 0))).containsExactly(ids.get(0), ids.get(1));
        assertThat(failedIds(queue.listFailed(2, 2))).containsExactly(ids.get(2), ids.get(3));
        assertThat(failedIds(queue.listFailed(2, 4))).containsExactly(ids.get(4));
        assertThat(queue.listFailed(2, 5)).isEmpty();
        assertThat(queue.listFailed(0, 0)).isEmpty();
        assertThat(failedIds(queue.listFailed())).containsExactlyElementsOf(ids);
    }

    @Test
    void listFailedReturnsTheFirstHundredByDefault() {
        SimpleQueue<Object> queue = queue(new DeliveryPolicy(LEASE, 0));
        List<Long> ids = queue.putMany(IntStream.range(0, 101).mapToObj(i -> EnqueueItem.<Object>of(i)).toList());
        for (int i = 0; i < 101; i++) {
            queue.getNowait();
        }
        clock.advance(LEASE);
        assertThat(queue.reclaimExpiredLeases()).isEqualTo(101);

        assertThat(failedIds(queue.listFailed())).containsExactlyElementsOf(ids.subList(0, 100));
        assertThat(failedIds(queue.listFailed(100, 100))).containsExactly(ids.get(100));
    }

    @Test
    void listFailedRefusesNegativeLimitAndOffset() {
        SimpleQueue<Object> queue = queue();

        assertThatThrownBy(() -> queue.listFailed(-1, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("limit");
        assertThatThrownBy(() -> queue.listFailed(10, -1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("offset");
    }

    @Test
    void listFailedReportsAnUndecodablePayloadInsteadOfThrowing() {
        byte[] garbage = {'{', '"', 't', 'o', '"', ':', ' ', (byte) 0xFF};
        SimpleQueue<byte[]> raw = open(SimpleQueue.builder(database(), new RawBytesSerializer()).name("mail").clock(clock));
        SimpleQueue<Object> json = queue("mail");
        long goodId = json.put(Map.of("to", "a@example.com"));
        long badId = raw.put(garbage);
        json.fail(json.getNowait());
        raw.fail(raw.getNowait());

        List<FailedMessage<Object>> dead = json.listFailed();

        assertThat(dead).hasSize(2);
        assertThat(dead.get(0).id()).isEqualTo(goodId);
        assertThat(dead.get(0).decoded()).isTrue();
        assertThat(dead.get(0).data()).isEqualTo(Map.of("to", "a@example.com"));
        FailedMessage<Object> broken = dead.get(1);
        assertThat(broken.id()).isEqualTo(badId);
        assertThat(broken.decoded()).isFalse();
        assertThat(broken.decodeError()).isNotBlank();
        assertThat(broken.data()).isNull();
        assertThat(broken.rawPayload()).isEqualTo(garbage);
        assertThat(broken.reason()).isEqualTo(FailureReason.EXPLICIT_PERMANENT_FAILURE);
    }

    @Test
    void claimingAnUndecodablePayloadMovesItToTheDeadLettersAsInvalidPayload() {
        byte[] garbage = "not json at all".getBytes(StandardCharsets.UTF_8);
        SimpleQueue<byte[]> raw = open(SimpleQueue.builder(database(), new RawBytesSerializer()).clock(clock));
        SimpleQueue<Object> json = queue();
        long badId = raw.put(garbage);
        long goodId = json.put("fine");

        assertThatThrownBy(json::getNowait)
                .isInstanceOf(LocalQueueException.class)
                .isNotInstanceOf(QueueEmptyException.class)
                .hasMessageContaining(Long.toString(badId));

        assertThat(json.stats()).isEqualTo(new QueueStats(1, 0, 0, 1));
        assertThat(json.listFailed()).singleElement().satisfies(dead -> {
            assertThat(dead.id()).isEqualTo(badId);
            assertThat(dead.reason()).isEqualTo(FailureReason.INVALID_PAYLOAD);
            assertThat(dead.rawPayload()).isEqualTo(garbage);
            assertThat(dead.attempts()).isEqualTo(1);
        });
        assertThat(json.getNowait().id()).isEqualTo(goodId);
    }

    @Test
    void storedFailureReasonThatIsMissingOrUnknownReadsAsLegacyUnknown() throws Exception {
        SimpleQueue<Object> queue = queue();
        long missing = queue.put("missing");
        long unknown = queue.put("unknown");
        queue.fail(queue.getNowait());
        queue.fail(queue.getNowait());
        try (Connection connection = TestDatabases.connect(dir);
             PreparedStatement update = connection.prepareStatement(
                     "UPDATE messages SET failure_reason = ? WHERE id = ?")) {
            update.setString(1, null);
            update.setLong(2, missing);
            update.executeUpdate();
            update.setString(1, "reason_from_the_future");
            update.setLong(2, unknown);
            update.executeUpdate();
        }

        assertThat(queue.listFailed()).extracting(FailedMessage::reason)
                .containsExactly(FailureReason.LEGACY_UNKNOWN, FailureReason.LEGACY_UNKNOWN);
    }

    @Test
    void retryFailedKeepsIdJobIdAndPayloadWithAFreshBudget() {
        SimpleQueue<Object> queue = queue(new DeliveryPolicy(LEASE, 1));
        long id = queue.put(Map.of("task", "x"), "job-1");
        queue.nack(queue.getNowait());
        queue.nack(queue.getNowait());
        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 0, 0, 1));

        queue.retryFailed(id);

        assertThat(queue.stats()).isEqualTo(new QueueStats(1, 0, 0, 0));
        assertThat(queue.put("other", "job-1")).isEqualTo(id);
        Job<Object> job = queue.getNowait();
        assertThat(job.id()).isEqualTo(id);
        assertThat(job.data()).isEqualTo(Map.of("task", "x"));
        assertThat(job.attempts()).isZero();
        queue.nack(job);
        assertThat(queue.getNowait().attempts()).isEqualTo(1);
    }

    @Test
    void retryFailedClearsTheLastErrorAndReason() {
        SimpleQueue<Object> queue = queue(new DeliveryPolicy(LEASE, 0));
        long id = queue.put("a");
        queue.nack(queue.getNowait(), Duration.ZERO, "boom");
        assertThat(queue.listFailed().get(0).lastError()).isEqualTo("boom");

        queue.retryFailed(id);
        queue.getNowait();
        clock.advance(LEASE);
        queue.reclaimExpiredLeases();

        assertThat(queue.listFailed()).singleElement().satisfies(dead -> {
            assertThat(dead.reason()).isEqualTo(FailureReason.RETRIES_EXHAUSTED);
            assertThat(dead.lastError()).doesNotContain("boom").startsWith("lease expired on delivery 1 of 1");
            assertThat(dead.attempts()).isEqualTo(1);
        });
    }

    @Test
    void retryFailedTwiceThrowsJobNotFound() {
        SimpleQueue<Object> queue = queue();
        long id = queue.put("a");
        queue.fail(queue.getNowait());
        queue.retryFailed(id);

        assertThatThrownBy(() -> queue.retryFailed(id)).isInstanceOf(JobNotFoundException.class);
        assertThat(queue.stats()).isEqualTo(new QueueStats(1, 0, 0, 0));
    }

    @Test
    void retryFailedOfMissingIdThrowsJobNotFound() {
        SimpleQueue<Object> queue = queue();

        assertThatThrownBy(() -> queue.retryFailed(12345)).isInstanceOf(JobNotFoundException.class);
    }

    @Test
    void retryFailedOfAnotherQueuesDeadLetterThrowsJobNotFound() {
        SimpleQueue<Object> owner = queue("owner");
        SimpleQueue<Object> stranger = queue("stranger");
        long id = owner.put("a");
        owner.fail(owner.getNowait());

        assertThatThrownBy(() -> stranger.retryFailed(id)).isInstanceOf(JobNotFoundException.class);

        assertThat(owner.stats()).isEqualTo(new QueueStats(0, 0, 0, 1));
        assertThat(stranger.stats()).isEqualTo(new QueueStats(0, 0, 0, 0));
    }

    @Test
    void retryFailedOfJobThatIsNotFailedThrowsJobNotFound() {
        SimpleQueue<Object> queue = queue();
        long acked = queue.put("acked");
        long processing = queue.put("processing");
        long ready = queue.put("ready");
        queue.ack(queue.getNowait());
        queue.getNowait();

        assertThatThrownBy(() -> queue.retryFailed(ready)).isInstanceOf(JobNotFoundException.class);
        assertThatThrownBy(() -> queue.retryFailed(processing)).isInstanceOf(JobNotFoundException.class);
        assertThatThrownBy(() -> queue.retryFailed(acked)).isInstanceOf(JobNotFoundException.class);
        assertThat(queue.stats()).isEqualTo(new QueueStats(1, 1, 1, 0));
    }

    // ---- purge and vacuum ---------------------------------------------------------------------------------------

    @Test
    void purgeDeletesOnlyAckedJobsOlderThanTheAge() {
        SimpleQueue<Object> queue = queue();
        queue.putMany(List.of(EnqueueItem.of("old"), EnqueueItem.of("young"), EnqueueItem.of("failed"),
                EnqueueItem.of("leased"), EnqueueItem.of("ready")));
        queue.ack(queue.getNowait());
        clock.advance(Duration.ofMinutes(30));
        queue.ack(queue.getNowait());
        queue.fail(queue.getNowait());
        queue.getNowait();
        clock.advance(Duration.ofMinutes(30).plusMillis(1));

        assertThat(queue.purge(Duration.ofHours(1))).isEqualTo(1);

        assertThat(queue.stats()).isEqualTo(new QueueStats(1, 1, 1, 1));
        assertThat(queue.purge(Duration.ofHours(1))).isZero();
    }

    @Test
    void purgeKeepsDeadLettersUnlessAskedToDeleteThem() {
        SimpleQueue<Object> queue = queue();
        queue.put("acked");
        queue.put("failed");
        queue.ack(queue.getNowait());
        queue.fail(queue.getNowait());
        clock.advance(Duration.ofMinutes(10));

        assertThat(queue.purge(Duration.ofMinutes(5), false)).isEqualTo(1);
        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 0, 0, 1));
        assertThat(queue.purge(Duration.ofMinutes(5), true)).isEqualTo(1);
        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 0, 0, 0));
    }

    @Test
    void purgeOnlyTouchesItsOwnQueue() {
        SimpleQueue<Object> first = queue("first");
        SimpleQueue<Object> second = queue("second");
        first.put("a");
        second.put("b");
        first.ack(first.getNowait());
        second.ack(second.getNowait());
        clock.advance(Duration.ofMinutes(1));

        assertThat(first.purge(Duration.ZERO)).isEqualTo(1);

        assertThat(second.stats()).isEqualTo(new QueueStats(0, 0, 1, 0));
    }

    @Test
    void purgedJobIdCanBeUsedAgain() {
        SimpleQueue<Object> queue = queue();
        long id = queue.put("first", "job-1");
        queue.ack(queue.getNowait());
        clock.advance(Duration.ofSeconds(1));
        queue.purge(Duration.ZERO);

        long again = queue.put("second", "job-1");

        assertThat(again).isNotEqualTo(id);
        assertThat(queue.getNowait().data()).isEqualTo("second");
    }

    @Test
    void vacuumKeepsEveryJob() {
        SimpleQueue<Object> queue = queue();
        queue.putMany(IntStream.range(0, 200).mapToObj(i -> EnqueueItem.<Object>of("payload " + i)).toList());
        for (int i = 0; i < 150; i++) {
            queue.ack(queue.getNowait());
        }
        clock.advance(Duration.ofSeconds(1));
        queue.purge(Duration.ZERO);

        queue.vacuum();

        assertThat(queue.stats()).isEqualTo(new QueueStats(50, 0, 0, 0));
        assertThat(queue.getNowait().data()).isEqualTo("payload 150");
        queue.put("after vacuum");
        assertThat(queue.stats().ready()).isEqualTo(50);
    }

    @Test
    @Tag(TestDatabases.FILE_ONLY)
    void theFileHasShrunkOnceVacuumReturns() throws Exception {
        SimpleQueue<Object> queue = queue();
        queue.putMany(IntStream.range(0, 2_000).mapToObj(i -> EnqueueItem.<Object>of("x".repeat(1_000))).toList());
        for (int i = 0; i < 2_000; i++) {
            queue.fail(queue.getNowait());
        }
        clock.advance(Duration.ofSeconds(1));
        queue.purge(Duration.ZERO, true);
        Path file = database().file();

        queue.vacuum();

        long pages = ((Number) RawSqlite.value(file, "PRAGMA page_count")).longValue();
        long pageSize = ((Number) RawSqlite.value(file, "PRAGMA page_size")).longValue();
        assertThat(java.nio.file.Files.size(file)).as("the file itself, not only its write-ahead log")
                .isEqualTo(pages * pageSize).isLessThan(200_000);
    }

    // ---- accessors ----------------------------------------------------------------------------------------------

    @Test
    void runsOnTheStoreUnderTest() {
        assertThat(database().engine()).isEqualToIgnoringCase(System.getProperty(TestDatabases.PROPERTY, "sqlite"));
        assertThat(database().isFile()).isEqualTo(TestDatabases.onFile());
    }

    @Test
    void accessorsReturnTheDefaults() {
        SimpleQueue<Object> queue = open(SimpleQueue.builder(database()));

        assertThat(queue.name()).isEqualTo("default");
        assertThat(queue.delivery()).isEqualTo(DeliveryPolicy.defaults());
        assertThat(queue.durability()).isEqualTo(DurabilityMode.RELAXED);
        assertThat(queue.maxPendingJobs()).isEqualTo(OptionalLong.empty());
    }

    @Test
    void accessorsReturnTheConfiguration() {
        DeliveryPolicy policy = new DeliveryPolicy(Duration.ofSeconds(7), 5);
        SimpleQueue<Object> queue = open(SimpleQueue.builder(database()).name("emails").delivery(policy)
                .durability(DurabilityMode.DURABLE).maxPendingJobs(42));

        assertThat(queue.name()).isEqualTo("emails");
        assertThat(queue.delivery()).isEqualTo(policy);
        assertThat(queue.durability()).isEqualTo(DurabilityMode.DURABLE);
        assertThat(queue.maxPendingJobs()).isEqualTo(OptionalLong.of(42));
    }

    @Test
    @Tag(TestDatabases.FILE_ONLY)
    void pathIsReturnedExactlyAsGiven() {
        Path given = dir.resolve("data").resolve(".").resolve("queues");

        SimpleQueue<Object> queue = open(SimpleQueue.builder(given));

        assertThat(queue.path()).isEqualTo(given);
        assertThat(queue.path().toString()).isEqualTo(given.toString());
        assertThat(dir.resolve("data").resolve("queues").resolve(LocalQueueDatabase.FILE_NAME)).exists();
    }

    @Test
    void durableQueueWorksLikeARelaxedOne() {
        SimpleQueue<Object> queue = open(SimpleQueue.builder(database()).durability(DurabilityMode.DURABLE).clock(clock));
        long id = queue.put("a");

        Job<Object> job = queue.getNowait();
        queue.ack(job);

        assertThat(job.id()).isEqualTo(id);
        assertThat(queue.stats()).isEqualTo(new QueueStats(0, 0, 1, 0));
    }

    @Test
    void typedQueueRoundTripsRecords() {
        SimpleQueue<JsonSerializerTest.Email> queue = open(SimpleQueue.builder(database(), JsonSerializerTest.Email.class)
                .clock(clock));
        JsonSerializerTest.Email email = new JsonSerializerTest.Email("a@example.com", 1, List.of("x"));
        queue.put(email);

        assertThat(queue.getNowait().data()).isEqualTo(email);
    }

    @Test
    void queuesOnASharedDatabaseHandleWorkAndLeaveItOpen() {
        LocalQueueDatabase database = closeAfterTest(TestDatabases.open(dir));
        SimpleQueue<Object> generic = open(SimpleQueue.builder(database).name("generic").clock(clock));
        SimpleQueue<JsonSerializerTest.Email> typed = open(SimpleQueue.builder(database,
                JsonSerializerTest.Email.class).name("typed").clock(clock));
        generic.put("a");
        typed.put(new JsonSerializerTest.Email("a@example.com", 1, List.of()));

        generic.close();
        typed.close();

        assertThat(database.isClosed()).isFalse();
        SimpleQueue<byte[]> again = open(SimpleQueue.builder(database, new RawBytesSerializer()).name("generic")
                .clock(clock));
        assertThat(again.getNowait().data()).isEqualTo("\"a\"".getBytes(StandardCharsets.UTF_8));
    }

    // ---- ordering -----------------------------------------------------------------------------------------------

    @Test
    void plainBacklogIsFirstInFirstOut() {
        SimpleQueue<Object> queue = queue();
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            ids.add(queue.put("p" + i));
            if (i % 3 == 0) {
                clock.advance(Duration.ofMillis(7));
            }
        }

        List<Long> claimed = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            claimed.add(queue.getNowait().id());
        }

        assertThat(claimed).containsExactlyElementsOf(ids);
    }

    @Test
    void delayedJobsAtTheHeadDoNotBlockDueJobsBehindThem() {
        SimpleQueue<Object> queue = queue();
        for (int i = 0; i < 3; i++) {
            queue.put("delayed " + i);
        }
        for (int i = 0; i < 3; i++) {
            queue.nack(queue.getNowait(), Duration.ofHours(1), null);
        }
        long due = queue.put("due");

        assertThat(queue.getNowait().id()).isEqualTo(due);
        assertThatThrownBy(queue::getNowait).isInstanceOf(QueueEmptyException.class);
    }

    // ---- helpers ------------------------------------------------------------------------------------------------

    private SimpleQueue<Object> queue() {
        return open(SimpleQueue.builder(database()).delivery(POLICY).clock(clock));
    }

    private SimpleQueue<Object> queue(String name) {
        return open(SimpleQueue.builder(database()).name(name).delivery(POLICY).clock(clock));
    }

    private SimpleQueue<Object> queue(DeliveryPolicy policy) {
        return open(SimpleQueue.builder(database()).delivery(policy).clock(clock));
    }

    private static List<Object> drainData(SimpleQueue<Object> queue) {
        return DueJobs.claimAll(queue).stream().map(Job::data).toList();
    }

    private static List<Long> failedIds(List<? extends FailedMessage<?>> dead) {
        return dead.stream().map(FailedMessage::id).toList();
    }
}
