package io.localqueue.internal.engine;

import io.localqueue.JobOutcome;
import org.jspecify.annotations.Nullable;

/** Told what a settlement handed over without waiting did, once its transaction ended. */
@FunctionalInterface
public interface Settled {

    /**
     * Receives the result, on the thread that committed; must be quick.
     *
     * @param outcome what the settlement did, or null when its transaction failed
     * @param failure why the transaction failed, or null
     */
    void settled(@Nullable JobOutcome outcome, @Nullable RuntimeException failure);
}
