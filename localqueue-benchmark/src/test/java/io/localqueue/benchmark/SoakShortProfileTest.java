package io.localqueue.benchmark;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the soak's {@code short} profile with a shorter fault phase, as CI does: kills, lock holds, handler failures
 * and lease overruns all happen, and every invariant of the ledger check holds. The figures are printed, never
 * asserted; the duplicate-execution rate is measured, not bounded.
 */
class SoakShortProfileTest {

    private static final Duration FAULT_PHASE = Duration.ofSeconds(45);

    @TempDir
    Path work;

    @Test
    void everyJobSurvivesKillsLockHoldsAndHandlerFailuresExactlyOnce() throws Exception {
        long seed = System.nanoTime();
        SoakProfile profile = SoakProfile.named("short").withDuration(FAULT_PHASE);

        SoakResult result = SoakRun.execute(profile, work, seed, System.out::println);

        String figures = result.render();
        System.out.println(figures);
        assertThat(result.violations()).as(figures).isEmpty();
        SoakCheck check = result.check();
        assertThat(check.tracked).as(figures).isPositive();
        assertThat(check.lost).as(figures).isZero();
        assertThat(check.duplicatedRows).as(figures).isZero();
        assertThat(result.producerKills()).as(figures).isPositive();
        assertThat(result.consumerKills()).as(figures).isPositive();
        assertThat(result.lockHolds()).as(figures).isPositive();
        assertThat(check.decisions).as(figures).containsKeys(SoakConsumerChild.NACK, SoakConsumerChild.FAIL,
                SoakConsumerChild.SLOW, SoakConsumerChild.POISON);
        assertThat(check.secondAcksRefused).as(figures).isPositive();
    }
}
