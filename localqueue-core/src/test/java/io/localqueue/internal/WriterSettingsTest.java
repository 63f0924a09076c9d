package io.localqueue.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.DurabilityMode;
import org.junit.jupiter.api.Test;

/**
 * The writer connection's settings: what each commit pays for depends on them.
 */
class WriterSettingsTest extends DatabaseTestBase {

    @Test
    void theWriterCheckpointsEveryFourThousandPages() {
        assertThat(pragma(DurabilityMode.RELAXED, "wal_autocheckpoint")).isEqualTo(4_000);
    }

    @Test
    void eachWriteRunsAtItsOwnDurability() {
        assertThat(pragma(DurabilityMode.DURABLE, "synchronous")).isEqualTo(2);
        assertThat(pragma(DurabilityMode.RELAXED, "synchronous")).isEqualTo(1);
        assertThat(pragma(DurabilityMode.DURABLE, "synchronous")).isEqualTo(2);
    }

    @Test
    void theWriterNeverWaitsInsideSqlite() {
        assertThat(pragma(DurabilityMode.RELAXED, "busy_timeout")).isZero();
    }

    private int pragma(DurabilityMode mode, String name) {
        Integer value = database.write(mode, 0, () -> { }, jdbc -> jdbc.queryForObject("PRAGMA " + name,
                Integer.class));
        return value == null ? -1 : value;
    }
}
