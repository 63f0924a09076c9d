package io.localqueue.internal.store.sqlite;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.localqueue.DurabilityMode;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteDataSource;

/**
 * A held statement must be over once its call returns: a statement left mid-step keeps the connection "in
 * progress", and {@code VACUUM} (which needs none running) then fails.
 */
class HeldStatementResetTest {

    private static final long BUDGET = TimeUnit.SECONDS.toNanos(5);

    @TempDir
    Path dir;

    private Writer writer;

    @BeforeEach
    void openWriter() throws SQLException {
        writer = new Writer(new SqliteConnector(dir.resolve("localqueue.db")));
        writer.write("setup", DurabilityMode.RELAXED, BUDGET, BUDGET, () -> { }, session -> {
            session.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER NOT NULL)");
            session.execute("INSERT INTO t (id, v) VALUES (1, 0), (2, 0), (3, 0)");
            return null;
        });
    }

    @AfterEach
    void closeWriter() {
        writer.close();
    }

    @Test
    void vacuumRunsAfterAMultiRowUpdate() {
        writer.write("update", DurabilityMode.RELAXED, BUDGET, BUDGET, () -> { }, session -> session.update(
                "WITH x(id, v) AS (VALUES (?, ?), (?, ?)) UPDATE t SET v = x.v FROM x WHERE t.id = x.id", statement -> {
                    statement.setLong(1, 1);
                    statement.setLong(2, 10);
                    statement.setLong(3, 2);
                    statement.setLong(4, 20);
                }));

        assertThatCode(this::vacuum).doesNotThrowAnyException();
    }

    @Test
    void vacuumRunsAfterAMultiRowUpdateWhoseReturnedRowsWereNotAllRead() {
        writer.write("update", DurabilityMode.RELAXED, BUDGET, BUDGET, () -> { }, session -> session.query(
                "WITH x(id, v) AS (VALUES (?, ?), (?, ?)) UPDATE t SET v = x.v FROM x WHERE t.id = x.id RETURNING t.id",
                statement -> {
                    statement.setLong(1, 1);
                    statement.setLong(2, 10);
                    statement.setLong(3, 2);
                    statement.setLong(4, 20);
                }, rows -> rows.next()));

        assertThatCode(this::vacuum).doesNotThrowAnyException();
    }

    @Test
    void vacuumRunsAfterABatch() {
        writer.write("update", DurabilityMode.RELAXED, BUDGET, BUDGET, () -> { }, session -> session.batch(
                "UPDATE t SET v = ? WHERE id = ?", 2, (statement, index) -> {
                    statement.setLong(1, 5);
                    statement.setLong(2, index + 1);
                }));

        assertThatCode(this::vacuum).doesNotThrowAnyException();
    }

    @Test
    void vacuumRunsAfterAMultiRowInsert() {
        writer.write("insert", DurabilityMode.RELAXED, BUDGET, BUDGET, () -> { }, session -> session.update(
                "INSERT INTO t (id, v) VALUES (?, 0), (?, 0)", statement -> {
                    statement.setLong(1, 4);
                    statement.setLong(2, 5);
                }));

        assertThatCode(this::vacuum).doesNotThrowAnyException();
    }

    @Test
    void vacuumRunsAfterAMultiRowUpdateThatFailedPartWay() {
        assertThatThrownBy(() -> writer.write("update", DurabilityMode.RELAXED, BUDGET, BUDGET, () -> { },
                session -> session.update(
                        "WITH x(id, v) AS (VALUES (?, ?), (?, ?)) UPDATE t SET id = x.v FROM x WHERE t.id = x.id",
                        statement -> {
                            statement.setLong(1, 1);
                            statement.setLong(2, 7);
                            statement.setLong(3, 2);
                            statement.setLong(4, 3);
                        }))).hasMessageContaining("UNIQUE");

        assertThatCode(this::vacuum).doesNotThrowAnyException();
    }

    @Test
    void vacuumRunsAfterAnInsertOnAConnectionThatKeepsGeneratedKeys() throws SQLException {
        SQLiteDataSource plain = new SQLiteDataSource();
        plain.setUrl("jdbc:sqlite:" + dir.resolve("localqueue.db").toUri());
        try (Session session = new Session(plain.getConnection())) {
            session.update("INSERT INTO t (id, v) VALUES (?, 0), (?, 0)", statement -> {
                statement.setLong(1, 4);
                statement.setLong(2, 5);
            });

            assertThatCode(() -> session.execute("VACUUM")).doesNotThrowAnyException();
        }
    }

    private void vacuum() {
        writer.writeOutsideTransaction("vacuum", "VACUUM", BUDGET, () -> { });
    }
}
