package io.localqueue.bus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** CSV files read strictly, resumed with one seek, and refused with the file, record and line when malformed. */
class CsvSourceTest {

    @TempDir
    Path directory;

    private Path file(String content) throws IOException {
        Path file = directory.resolve("users.csv");
        Files.writeString(file, content, StandardCharsets.UTF_8);
        return file;
    }

    private static List<SourceRecord<CsvRow>> readAll(CsvSource source, String cursor) {
        List<SourceRecord<CsvRow>> records = new ArrayList<>();
        try (SourceReader<CsvRow> reader = source.open(cursor)) {
            reader.forEachRemaining(records::add);
        }
        return records;
    }

    @Test
    void rowsComeByColumnWithTheirRecordAndLineNumbers() throws IOException {
        Path file = file("\uFEFFexternal_id,name\r\n1,Zoë\r\n2,\"Smith, \"\"Jo\"\"\nsecond line\"\r\n3,\r\n");

        List<SourceRecord<CsvRow>> records = readAll(CsvSource.of(file), null);

        assertThat(records).extracting(record -> record.value().asMap()).containsExactly(
                Map.of("external_id", "1", "name", "Zoë"),
                Map.of("external_id", "2", "name", "Smith, \"Jo\"\nsecond line"),
                Map.of("external_id", "3", "name", ""));
        assertThat(records).extracting(record -> record.value().recordNumber()).containsExactly(1L, 2L, 3L);
        assertThat(records).extracting(record -> record.value().lineNumber()).containsExactly(2L, 4L, 5L);
        assertThat(records.get(0).value().get("name")).isEqualTo("Zoë");
        assertThatThrownBy(() -> records.get(0).value().get("email")).hasMessageContaining("no column 'email'");
    }

    @Test
    void aCursorResumesRightAfterItsRecord() throws IOException {
        StringBuilder content = new StringBuilder("id,name\n");
        for (int i = 1; i <= 1_000; i++) {
            content.append(i).append(",näme ").append(i).append('\n');
        }
        CsvSource source = CsvSource.of(file(content.toString()));
        List<SourceRecord<CsvRow>> all = readAll(source, null);

        List<SourceRecord<CsvRow>> rest = readAll(source, all.get(699).cursor());

        assertThat(rest).hasSize(300);
        assertThat(rest.get(0).value().get("id")).isEqualTo("701");
        assertThat(rest.get(0).value().recordNumber()).isEqualTo(701);
        assertThat(rest.get(0).value().lineNumber()).isEqualTo(702);
        assertThat(rest).extracting(SourceRecord::cursor).isEqualTo(all.subList(700, 1_000).stream()
                .map(SourceRecord::cursor).toList());
        assertThat(all.get(699).cursor()).startsWith("{\"version\":1,\"offset\":");
    }

    @Test
    void dialectsDelimitersEscapesAndGivenColumnsAreHonoured() throws IOException {
        Path tabs = file("a\tb\n1\t2\n");
        assertThat(readAll(CsvSource.builder(tabs).dialect(CsvSource.Dialect.EXCEL_TAB).build(), null))
                .extracting(record -> record.value().asMap()).containsExactly(Map.of("a", "1", "b", "2"));

        Path escaped = directory.resolve("escaped.csv");
        Files.writeString(escaped, "1;x\\;y\n");
        CsvSource custom = CsvSource.builder(escaped).delimiter(';').quote(null).escape('\\')
                .header(List.of("id", "text")).build();
        assertThat(readAll(custom, null)).extracting(record -> record.value().asMap())
                .containsExactly(Map.of("id", "1", "text", "x;y"));
    }

    @Test
    void malformedFilesAreRefusedNamingFileRecordAndLine() throws IOException {
        assertThatThrownBy(() -> readAll(CsvSource.of(file("id,name\n1,a\n2\n")), null))
                .isInstanceOf(CsvSourceException.class).hasMessageContaining("users.csv, record 2, line 3")
                .hasMessageContaining("expected 2 fields");
        assertThatThrownBy(() -> readAll(CsvSource.of(file("id,name\n1,a\n\n2,b\n")), null))
                .isInstanceOf(CsvSourceException.class).hasMessageContaining("record 2, line 3: blank line");
        assertThatThrownBy(() -> readAll(CsvSource.of(file("id,id\n1,a\n")), null))
                .isInstanceOf(CsvSourceException.class).hasMessageContaining("names column 'id' twice");
        assertThatThrownBy(() -> readAll(CsvSource.of(file("")), null))
                .isInstanceOf(CsvSourceException.class).hasMessageContaining("the file is empty");
        assertThatThrownBy(() -> readAll(CsvSource.of(file("id,name\n1,\"open\n")), null))
                .isInstanceOf(CsvSourceException.class).hasMessageContaining("not closed")
                .hasMessageContaining("starts on line 2");
        assertThatThrownBy(() -> CsvSource.of(directory.resolve("missing.csv")))
                .isInstanceOf(CsvSourceException.class).hasMessageContaining("does not exist");
        CsvSource source = CsvSource.of(file("id\n1\n"));
        assertThatThrownBy(() -> source.open("{\"version\":2,\"offset\":0,\"record\":0,\"line\":0}"))
                .isInstanceOf(CsvSourceException.class).hasMessageContaining("version 2");
        assertThatThrownBy(() -> source.open("7")).isInstanceOf(CsvSourceException.class)
                .hasMessageContaining("malformed cursor");
    }

    @Test
    void aFileChangedSinceTheSourceWasMadeIsRefusedAndChangesItsFingerprint() throws IOException {
        Path file = file("id\n1\n2\n");
        CsvSource source = CsvSource.of(file);
        String before = source.fingerprint();

        Files.writeString(file, "3\n", StandardOpenOption.APPEND);
        Files.setLastModifiedTime(file, FileTime.from(Instant.parse("2030-01-01T00:00:00Z")));

        assertThatThrownBy(() -> source.open(null)).isInstanceOf(CsvSourceException.class)
                .hasMessageContaining("changed");
        assertThat(CsvSource.of(file).fingerprint()).isNotEqualTo(before);
        assertThat(CsvSource.builder(file).fingerprint("export-7").build().fingerprint())
                .isEqualTo(CsvSource.builder(file).fingerprint("export-7").build().fingerprint());
    }

    @Test
    void aFileChangedDuringTheReadIsRefusedAtItsEnd() throws IOException {
        Path file = file("id\n1\n2\n");
        CsvSource source = CsvSource.of(file);
        try (SourceReader<CsvRow> reader = source.open(null)) {
            reader.next();
            Files.writeString(file, "3\n", StandardOpenOption.APPEND);
            assertThatThrownBy(() -> {
                while (reader.hasNext()) {
                    reader.next();
                }
            }).isInstanceOf(CsvSourceException.class).hasMessageContaining("changed while it was read");
        }
    }

    @Test
    void anIngestionOfACsvResumesAfterItsLastCommittedBatch() throws IOException {
        @BusEvent(name = "user.imported", identity = "externalId")
        record UserImported(String externalId, String name) {
        }
        StringBuilder content = new StringBuilder("external_id,name\n");
        for (int i = 1; i <= 250; i++) {
            content.append(i).append(",user ").append(i).append('\n');
        }
        CsvSource source = CsvSource.of(file(content.toString()));
        try (EventBus bus = EventBus.builder(directory.resolve("queue"))
                .topology(BusTopology.builder().route("users", UserImported.class).build()).build()) {
            assertThatThrownBy(() -> bus.ingest(source, "users", row -> {
                if (row.recordNumber() == 130) {
                    throw new IllegalStateException("stop");
                }
                return new UserImported(row.get("external_id"), row.get("name"));
            }, 50, 0)).hasMessage("stop");

            IngestionResult rest = bus.ingest(source, "users",
                    row -> new UserImported(row.get("external_id"), row.get("name")), 50, 0);

            assertThat(rest.itemsRead()).isEqualTo(150);
            assertThat(rest.deliveriesInserted()).isEqualTo(150);
            assertThat(bus.subscription("users").stats().ready()).isEqualTo(250);
        }
    }

    @BusEvent(name = "user.imported", identity = "externalId")
    record UserImported(String externalId) {
    }

    @Test
    void aRowWhoseIdentityIsInvalidIsNamedByItsRecordAndLineAndItsBatchStaysUncommitted() throws IOException {
        Path file = file("external_id\n1\n2\n\"\"\n4\n");
        try (EventBus bus = EventBus.builder(directory.resolve("queue"))
                .topology(BusTopology.builder().route("users", UserImported.class).build()).build()) {

            assertThatThrownBy(() -> bus.ingest(CsvSource.of(file), "users", row -> new UserImported(
                    row.get("external_id")), 10, 0)).isInstanceOf(InvalidEventIdentityException.class)
                    .hasMessageStartingWith("source item 3 (CSV record 3, line 4): identity field 'externalId'")
                    .hasMessageContaining("must not be blank")
                    .hasMessageContaining("nothing of its batch was committed");
            assertThat(bus.subscription("users").stats().ready()).isZero();
        }
    }
}
