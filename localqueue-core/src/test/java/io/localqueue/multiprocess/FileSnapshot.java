package io.localqueue.multiprocess;

import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.storage.RawSqlite;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Everything a database file holds, read with plain JDBC: schema objects, every row of every table, and the pragmas
 * that move when SQLite rewrites pages ({@code page_count}, {@code freelist_count}) or the schema
 * ({@code user_version}). Two snapshots are equal when the file's content is the same. A missing file reads as
 * nothing at all and is never created by reading it.
 */
record FileSnapshot(Map<String, String> schema, Map<String, List<Map<String, Object>>> tables,
                    Map<String, Object> pragmas) {

    private static final List<String> PRAGMAS = List.of("page_count", "freelist_count", "user_version");

    static FileSnapshot of(Path file) throws SQLException {
        if (!Files.exists(file)) {
            return new FileSnapshot(Map.of(), Map.of(), Map.of());
        }
        Map<String, Object> pragmas = new LinkedHashMap<>();
        for (String pragma : PRAGMAS) {
            pragmas.put(pragma, RawSqlite.pragma(file, pragma));
        }
        return new FileSnapshot(RawSqlite.schema(file), RawSqlite.tables(file), pragmas);
    }

    /** The {@code messages} rows by id, in id order. */
    Map<Long, Map<String, Object>> messages() {
        Map<Long, Map<String, Object>> byId = new LinkedHashMap<>();
        for (Map<String, Object> row : tables.getOrDefault("messages", List.of())) {
            byId.put((Long) row.get("id"), row);
        }
        return byId;
    }

    /** The {@code messages} row with {@code id}, or null when there is none. */
    @Nullable Map<String, Object> row(long id) {
        return messages().get(id);
    }

    /** The ids of {@code messages} rows this snapshot has and {@code earlier} had not, in id order. */
    List<Long> addedSince(FileSnapshot earlier) {
        Set<Long> old = earlier.messages().keySet();
        return messages().keySet().stream().filter(id -> !old.contains(id)).toList();
    }

    long pragma(String name) {
        return ((Number) pragmas.get(name)).longValue();
    }

    /**
     * Asserts that every {@code messages} row except those of {@code touched} is what it was in {@code earlier}, and
     * that no other row appeared or went away.
     */
    void assertUnchangedSince(FileSnapshot earlier, Set<Long> touched) {
        Map<Long, Map<String, Object>> now = messages();
        Map<Long, Map<String, Object>> then = earlier.messages();
        now.keySet().removeAll(touched);
        then.keySet().removeAll(touched);
        assertThat(now).as("rows the transaction does not touch").isEqualTo(then);
    }
}
