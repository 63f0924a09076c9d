package io.localqueue.internal.engine;

import io.localqueue.DurabilityMode;
import java.util.List;
import java.util.function.Function;

/** The durability of a transaction that several callers share: the strongest any of them asked for. */
final class SharedDurability {

    private SharedDurability() {
    }

    /**
     * Returns {@link DurabilityMode#DURABLE} when any change of the batch asks for it, else
     * {@link DurabilityMode#RELAXED}; an empty batch is relaxed.
     */
    static <T> DurabilityMode of(List<T> batch, Function<T, DurabilityMode> asked) {
        for (T change : batch) {
            if (asked.apply(change) == DurabilityMode.DURABLE) {
                return DurabilityMode.DURABLE;
            }
        }
        return DurabilityMode.RELAXED;
    }
}
