package io.localqueue.benchmark;

import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.Job;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.SimpleQueue;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The soak's ledger check against hand-written ledgers and logs: silent on a consistent run, loud on each break. */
class SoakCheckTest {

    private static final SoakProfile PROFILE = SoakProfile.named("short");
    private static final int MAX_ATTEMPTS = PROFILE.maxRetries() + 1;

    @TempDir
    Path dir;

    private long acked;
    private long ready;
    private String receipt = "";

    @BeforeEach
    void twoJobsOneAcked() {
        try (SimpleQueue<String> queue = SoakQueue.open(dir, PROFILE)) {
            acked = queue.put("p0-0", "p0-0");
            ready = queue.put("p0-1", "p0-1");
            Job<String> job = queue.getNowait();
            receipt = job.receipt();
            queue.ack(job);
        }
    }

    @Test
    void aConsistentRunBreaksNoInvariant() throws Exception {
        SoakCheck check = check(List.of(acked + " p0-0", ready + " p0-1"),
                List.of("S " + acked + " 0 " + receipt + " p0-0 ok", "A " + acked + " 0", "RR " + acked));

        assertThat(check.violations()).isEmpty();
        assertThat(check.tracked).isEqualTo(2);
        assertThat(check.acked).isEqualTo(1);
        assertThat(check.pending).isEqualTo(1);
        assertThat(check.extraExecutions).isZero();
        assertThat(check.secondAcksRefused).isEqualTo(1);
    }

    @Test
    void aRetriedThenAckedJobCountsOneExtraExecutionAfterAHandlerFailure() throws Exception {
        SoakCheck check = check(List.of(acked + " p0-0", ready + " p0-1"), List.of(
                "S " + acked + " 0 r-first p0-0 nack", "R " + acked + " 0",
                "S " + acked + " 1 r-second p0-0 ok", "A " + acked + " 1"));

        assertThat(check.violations()).isEmpty();
        assertThat(check.extraExecutions).isEqualTo(1);
        assertThat(check.extraAfterHandlerFailure).isEqualTo(1);
    }

    @Test
    void anAckOfAnExecutionThatOutlivedItsLeaseIsReported() throws Exception {
        SoakCheck check = check(List.of(acked + " p0-0", ready + " p0-1"),
                List.of("S " + acked + " 0 " + receipt + " p0-0 slow", "A " + acked + " 0"));

        assertThat(check.violations()).containsExactly("1 acks of executions that outlived their lease");
    }

    @Test
    void eachBrokenInvariantIsReported() throws Exception {
        SoakCheck check = check(List.of(acked + " p0-0", ready + " p0-1", "99 p0-2", ready + " p0-3"), List.of(
                "S " + acked + " 0 " + receipt + " p0-0 ok", "A " + acked + " 0",
                "S " + acked + " 0 " + receipt + " p0-0 ok", "A " + acked + " 0", "RA " + acked,
                "S " + ready + " " + MAX_ATTEMPTS + " r-late p0-1 ok", "S " + ready + " 1 r-other p0-9 ok",
                "A " + ready + " 1"));

        assertThat(check.violations()).containsExactlyInAnyOrder(
                "2 puts that returned but whose job is not in the file",
                "1 job keys logged with two ids, or ids with two keys",
                "1 executions beyond the budget",
                "1 executions whose payload is not the job's key",
                "1 receipts handed out twice",
                "1 deliveries (job and attempt) executed twice",
                "1 jobs acknowledged twice",
                "1 second acks of one delivery that were accepted",
                "1 acks reported committed whose job is not acked in the file");
    }

    private SoakCheck check(List<String> ledger, List<String> log) throws Exception {
        Path ledgerFile = Files.write(dir.resolve("producer-0.1" + SoakFleet.LEDGER), lines(ledger));
        Path logFile = Files.write(dir.resolve("consumer-0.1" + SoakFleet.LOG), lines(log));
        return SoakCheck.of(dir.resolve(LocalQueueDatabase.FILE_NAME), SoakQueue.NAME, MAX_ATTEMPTS,
                List.of(ledgerFile), List.of(logFile));
    }

    /** The lines with their newlines, and one last line cut short, as a kill leaves it. */
    private static byte[] lines(List<String> lines) {
        return (String.join("\n", lines) + "\nS 1 0 cut-sho").getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }
}
