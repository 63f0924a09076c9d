package io.localqueue.internal.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.localqueue.DatabaseBusyException;
import io.localqueue.DurabilityMode;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;
import org.sqlite.SQLiteDataSource;

/**
 * The writer's transactions run through Spring's transaction manager: each one binds its connection for its
 * duration, holds SQLite's write lock only between its {@code BEGIN IMMEDIATE} and its {@code COMMIT}, rolls back on
 * failure, and leaves a transaction the calling thread holds elsewhere as it found it.
 */
class WriterTransactionTest {

    @TempDir
    Path dir;

    private Path file;
    private Writer writer;

    @BeforeEach
    void openWriter() throws SQLException {
        file = dir.resolve("localqueue.db");
        writer = new Writer(new SqliteConnector(file));
        write(session -> {
            session.execute("CREATE TABLE items (name TEXT NOT NULL)");
            return null;
        });
    }

    @AfterEach
    void closeWriter() {
        writer.close();
    }

    @Test
    void theWorkRunsOnTheConnectionSpringsTransactionManagerBound() {
        Boolean bound = write(session -> TransactionSynchronizationManager.getResourceMap().size() == 1);
        assertThat(bound).isTrue();
        assertThat(TransactionSynchronizationManager.getResourceMap()).as("unbound after the commit").isEmpty();
    }

    @Test
    void theWriteLockIsFreeOnceAWriteReturns() throws SQLException {
        insert("a");

        try (Connection other = SqliteConnector.dataSource(file, 0).getConnection();
             Statement statement = other.createStatement()) {
            statement.execute("BEGIN IMMEDIATE");
            statement.execute("INSERT INTO items VALUES ('b')");
            statement.execute("COMMIT");
        }
        assertThat(names()).containsExactly("a", "b");
    }

    @Test
    void aFailedWorkRollsBackAndTheNextWriteRunsOnAFreshTransaction() {
        IllegalStateException refused = new IllegalStateException("changed its mind");
        assertThatThrownBy(() -> write(session -> {
            session.update("INSERT INTO items VALUES (?)", statement -> statement.setString(1, "lost"));
            throw refused;
        })).isSameAs(refused);
        assertThatThrownBy(() -> write(session -> {
            session.update("INSERT INTO missing VALUES (?)", statement -> statement.setString(1, "lost"));
            return null;
        })).hasMessageContaining("no such table: missing");

        insert("kept");
        assertThat(names()).containsExactly("kept");
    }

    @Test
    void aWriteWaitsForAnotherProcesssLockAndIsBusyWhenItsBudgetEnds() throws SQLException {
        try (Connection other = SqliteConnector.dataSource(file, 0).getConnection();
             Statement statement = other.createStatement()) {
            statement.execute("BEGIN IMMEDIATE");
            assertThatThrownBy(() -> writer.write("put", DurabilityMode.RELAXED, TimeUnit.MILLISECONDS.toNanos(50),
                    TimeUnit.MILLISECONDS.toNanos(50), () -> { }, session -> null))
                    .isInstanceOf(DatabaseBusyException.class);
            statement.execute("COMMIT");
        }
        insert("after");
        assertThat(names()).containsExactly("after");
    }

    @Test
    void aTransactionTheCallerHoldsOnAnotherDataSourceKeepsItsConnectionAndSynchronizations() {
        SQLiteDataSource own = SqliteConnector.dataSource(dir.resolve("own.db"), 1000);
        TransactionTemplate callers = new TransactionTemplate(new DataSourceTransactionManager(own));
        List<String> events = new ArrayList<>();

        callers.executeWithoutResult(status -> {
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCommit() {
                    events.add("caller committed");
                }
            });
            insert("inside");
            events.add("written, caller active " + TransactionSynchronizationManager.isActualTransactionActive()
                    + ", caller's connection bound " + TransactionSynchronizationManager.hasResource(own));
        });

        assertThat(events).containsExactly("written, caller active true, caller's connection bound true",
                "caller committed");
        assertThat(names()).containsExactly("inside");
    }

    private void insert(String name) {
        write(session -> session.update("INSERT INTO items VALUES (?)", statement -> statement.setString(1, name)));
    }

    private List<String> names() {
        return write(session -> session.query("SELECT name FROM items ORDER BY rowid", statement -> { }, rows -> {
            List<String> names = new ArrayList<>();
            while (rows.next()) {
                names.add(rows.getString(1));
            }
            return names;
        }));
    }

    private <R> R write(SessionWork<R> work) {
        return writer.write("test", DurabilityMode.RELAXED, TimeUnit.SECONDS.toNanos(5), TimeUnit.SECONDS.toNanos(5),
                () -> { }, work);
    }
}
