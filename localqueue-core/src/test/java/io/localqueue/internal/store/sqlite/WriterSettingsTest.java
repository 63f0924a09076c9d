package io.localqueue.internal.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.DurabilityMode;
import java.nio.file.Path;
import java.sql.SQLException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The writer connection's settings: what each commit pays for depends on them.
 */
class WriterSettingsTest {

    @TempDir
    Path dir;

    private Writer writer;

    @BeforeEach
    void openWriter() throws SQLException {
        writer = new Writer(new SqliteConnector(dir.resolve("localqueue.db")));
    }

    @AfterEach
    void closeWriter() {
        writer.close();
    }

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

    private long pragma(DurabilityMode mode, String name) {
        Long value = writer.write("test", mode, 0, 0, () -> { },
                session -> session.queryLong("PRAGMA " + name, statement -> { }));
        return value == null ? -1 : value;
    }
}
