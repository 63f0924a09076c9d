package io.localqueue.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.localqueue.LocalQueueException;
import io.localqueue.internal.store.ClaimTurn;
import io.localqueue.internal.time.Deadline;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * A blocking claim waits for its turn within its deadline, and passes a turn that another process has kept from
 * this one for longer than any claim holds it; here a turn that is never granted plays the process that hangs.
 */
class ClaimTurnWaitsTest {

    private static final long STUCK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final NeverGranted never = new NeverGranted();

    @Test
    void aClaimWhoseDeadlineComesBeforeTheTurnMissesIt() {
        ClaimTurnWaits waits = new ClaimTurnWaits("q", never, STUCK_NANOS);

        assertThat(waits.enter(Deadline.after(TimeUnit.MILLISECONDS.toNanos(20)), () -> false))
                .isEqualTo(ClaimTurnWaits.Entry.MISSED);
    }

    @Test
    void claimsGoAheadOnceTheTurnWasKeptFromThemForTooLong() {
        ClaimTurnWaits waits = new ClaimTurnWaits("q", never, STUCK_NANOS);
        waits.enter(Deadline.after(TimeUnit.MILLISECONDS.toNanos(20)), () -> false);

        // this wait runs out at the stuck bound, which counts from the first miss
        assertThat(waits.enter(Deadline.after(TimeUnit.SECONDS.toNanos(10)), () -> false))
                .isEqualTo(ClaimTurnWaits.Entry.SKIPPED);
        waits.exit(ClaimTurnWaits.Entry.SKIPPED);
        assertThat(never.exits).as("a claim that went without the turn gives none back").hasValue(0);
    }

    @Test
    void aTurnThatComesAgainEndsThePassing() {
        GrantedWhenAllowed turn = new GrantedWhenAllowed();
        ClaimTurnWaits waits = new ClaimTurnWaits("q", turn, STUCK_NANOS);
        assertThat(waits.enter(Deadline.after(TimeUnit.SECONDS.toNanos(10)), () -> false))
                .isEqualTo(ClaimTurnWaits.Entry.SKIPPED);

        turn.granting = true;
        ClaimTurnWaits.Entry entry = waits.enter(Deadline.after(TimeUnit.SECONDS.toNanos(10)), () -> false);
        assertThat(entry).isEqualTo(ClaimTurnWaits.Entry.TAKEN);
        waits.exit(entry);
        assertThat(turn.exits).hasValue(1);

        turn.granting = false;
        assertThat(waits.enter(Deadline.after(TimeUnit.MILLISECONDS.toNanos(20)), () -> false))
                .as("the stuck bound counts again from this miss").isEqualTo(ClaimTurnWaits.Entry.MISSED);
    }

    @Test
    void aCancelledClaimMissesTheTurnEvenPastTheStuckBound() {
        ClaimTurnWaits waits = new ClaimTurnWaits("q", never, STUCK_NANOS);
        waits.enter(Deadline.after(STUCK_NANOS * 2), () -> false);

        assertThat(waits.enter(Deadline.after(TimeUnit.SECONDS.toNanos(10)), () -> true))
                .isEqualTo(ClaimTurnWaits.Entry.MISSED);
    }

    @Test
    void anInterruptedWaitFailsAndKeepsTheInterrupt() {
        ClaimTurn interrupted = new ClaimTurn() {
            @Override
            public boolean enter(long waitNanos, BooleanSupplier cancelled) throws InterruptedException {
                throw new InterruptedException();
            }

            @Override
            public void exit() {
            }
        };
        ClaimTurnWaits waits = new ClaimTurnWaits("q", interrupted, STUCK_NANOS);

        try {
            assertThatThrownBy(() -> waits.enter(Deadline.after(1_000_000), () -> false))
                    .isInstanceOf(LocalQueueException.class).hasMessageContaining("interrupted");
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }

    /** A turn held by a process that never lets go: each wait runs out. */
    private static class NeverGranted implements ClaimTurn {
        final AtomicInteger exits = new AtomicInteger();

        @Override
        public boolean enter(long waitNanos, BooleanSupplier cancelled) throws InterruptedException {
            TimeUnit.NANOSECONDS.sleep(waitNanos);
            return false;
        }

        @Override
        public void exit() {
            exits.incrementAndGet();
        }
    }

    /** A turn that comes once it is allowed to. */
    private static final class GrantedWhenAllowed extends NeverGranted {
        volatile boolean granting;

        @Override
        public boolean enter(long waitNanos, BooleanSupplier cancelled) throws InterruptedException {
            return granting || super.enter(waitNanos, cancelled);
        }
    }
}
