package io.localqueue;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteDataSource;

/** Opening a database on a server without the store that serves it: the message names what to add or do instead. */
@Tag(TestDatabases.FILE_ONLY)
class ServerOpeningTest {

    @Test
    void aPostgresqlUrlWithoutThePostgresqlModuleNamesTheDependency() {
        assertThatThrownBy(() -> LocalQueueDatabase.server("jdbc:postgresql://db.internal/app").open())
                .isInstanceOf(LocalQueueException.class)
                .hasMessageContaining("no PostgreSQL store is on the class path for jdbc:postgresql://db.internal/app")
                .hasMessageContaining("io.localqueue:localqueue-postgresql");
    }

    @Test
    void aDataSourceOfADatabaseNoStoreServesIsRefusedNamingItsUrl(@TempDir Path directory) {
        SQLiteDataSource sqlite = new SQLiteDataSource();
        sqlite.setUrl("jdbc:sqlite:" + directory.resolve("app.db"));

        assertThatThrownBy(() -> SimpleQueue.builder(sqlite, String.class).build())
                .isInstanceOf(LocalQueueException.class)
                .hasMessageContaining("no store for the database at jdbc:sqlite:")
                .hasMessageContaining("open a directory");
    }

    @Test
    void settingsAreCheckedWhenSet() {
        assertThatThrownBy(() -> LocalQueueDatabase.server("jdbc:postgresql://db/app").schema("public; drop"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("schema must be a lower-case");
        assertThatThrownBy(() -> LocalQueueDatabase.server("jdbc:postgresql://db/app").username(" "))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("username");
        assertThatThrownBy(() -> SimpleQueue.builder((javax.sql.DataSource) null, String.class))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("dataSource");
    }
}
