package io.localqueue;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ValueTypesTest {

    @Test
    void enqueueItemWithoutJobIdHasNullJobId() {
        EnqueueItem<String> item = EnqueueItem.of("payload");

        assertThat(item.data()).isEqualTo("payload");
        assertThat(item.jobId()).isNull();
    }

    @Test
    void enqueueItemKeepsItsJobId() {
        EnqueueItem<String> item = EnqueueItem.of("payload", "job-1");

        assertThat(item).isEqualTo(new EnqueueItem<>("payload", "job-1"));
        assertThat(EnqueueItem.of("payload", null).jobId()).isNull();
    }

    @Test
    void queueStatsIsAValueWithPendingAndTotal() {
        QueueStats stats = new QueueStats(1, 2, 3, 4);

        assertThat(stats).isEqualTo(new QueueStats(1, 2, 3, 4));
        assertThat(stats.ready()).isEqualTo(1);
        assertThat(stats.processing()).isEqualTo(2);
        assertThat(stats.acked()).isEqualTo(3);
        assertThat(stats.failed()).isEqualTo(4);
        assertThat(stats.pending()).isEqualTo(3);
        assertThat(stats.total()).isEqualTo(10);
    }

    @Test
    void failureReasonsStoreTheReferenceValues() {
        assertThat(Arrays.stream(FailureReason.values()).map(FailureReason::value)).containsExactly(
                "retries_exhausted", "permanent_handler_error", "unknown_event_type", "invalid_envelope",
                "invalid_payload", "handler_timeout", "explicit_permanent_failure", "no_handler", "rejected",
                "legacy_unknown");
    }

    @Test
    void everyStoredFailureReasonReadsBack() {
        for (FailureReason reason : FailureReason.values()) {
            assertThat(FailureReason.fromStored(reason.value())).isEqualTo(reason);
        }
    }

    @Test
    void nullStoredFailureReasonReadsAsLegacyUnknown() {
        assertThat(FailureReason.fromStored(null)).isEqualTo(FailureReason.LEGACY_UNKNOWN);
    }

    @Test
    void unknownStoredFailureReasonReadsAsLegacyUnknown() {
        assertThat(FailureReason.fromStored("disk_on_fire")).isEqualTo(FailureReason.LEGACY_UNKNOWN);
        assertThat(FailureReason.fromStored("")).isEqualTo(FailureReason.LEGACY_UNKNOWN);
        assertThat(FailureReason.fromStored("RETRIES_EXHAUSTED")).isEqualTo(FailureReason.LEGACY_UNKNOWN);
    }

    @Test
    void durabilityModesMapToSqliteSynchronousLevels() {
        assertThat(DurabilityMode.values()).containsExactly(DurabilityMode.RELAXED, DurabilityMode.DURABLE);
        assertThat(DurabilityMode.RELAXED.synchronousLevel()).isEqualTo(1);
        assertThat(DurabilityMode.DURABLE.synchronousLevel()).isEqualTo(2);
    }

    @Test
    void failedMessageIsDecodedExactlyWhenThereIsNoDecodeError() {
        Instant at = Instant.EPOCH;
        FailedMessage<String> decoded = new FailedMessage<>(1, "x", new byte[] {'"', 'x', '"'}, 1,
                FailureReason.REJECTED, null, null, at, at, null, 0, null);
        FailedMessage<String> broken = new FailedMessage<>(2, null, new byte[] {1}, 1,
                FailureReason.REJECTED, null, null, at, at, "Boom: bad", 0, null);

        assertThat(decoded.decoded()).isTrue();
        assertThat(broken.decoded()).isFalse();
        assertThat(List.of(decoded.id(), broken.id())).containsExactly(1L, 2L);
    }
}
