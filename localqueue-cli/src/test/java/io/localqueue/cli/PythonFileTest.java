package io.localqueue.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.LocalQueueDatabase;
import io.localqueue.storage.PythonDatabase;
import io.localqueue.storage.RawSqlite;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Every command on a file built to the Python library 1.4's exact layout: the ones that read leave it byte for byte
 * as it was, the ones that write refuse without {@code --upgrade} and leave it as well, and with it they work.
 */
class PythonFileTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path dir;

    private PythonDatabase python;
    private byte[] bytes;

    @BeforeEach
    void writeThePythonFile() throws Exception {
        python = PythonDatabase.create(dir);
        bytes = Files.readAllBytes(python.file());
    }

    @Test
    void everyReadingCommandWorksOnACopyAndLeavesTheFileAsItWas() throws Exception {
        long deadLetter = python.id(PythonDatabase.FAILED_WITHOUT_REASON);
        Path backup = dir.resolveSibling(dir.getFileName() + "-backup");
        List<List<String>> commands = List.of(
                List.of("queues"),
                List.of("stats"),
                List.of("stats", "--queue", PythonDatabase.QUEUE),
                List.of("jobs", "--queue", PythonDatabase.QUEUE, "--state", "leased"),
                List.of("failed", "list", "--queue", PythonDatabase.QUEUE),
                List.of("failed", "show", "--queue", PythonDatabase.QUEUE, String.valueOf(deadLetter)),
                List.of("recurring", "list"),
                List.of("check"),
                List.of("backup", backup.toString()),
                List.of("doctor"),
                List.of("tail", "--queue", PythonDatabase.QUEUE, "--for", "300ms", "--interval", "100ms"));
        for (List<String> command : commands) {
            for (boolean json : new boolean[] {false, true}) {
                String[] args = args(command, json);
                Cli run = Cli.run(args);
                assertThat(run.exitCode()).as(String.join(" ", args) + "\n" + run.err()).isZero();
                if (!command.get(0).equals("backup")) {
                    assertThat(run.err()).as(String.join(" ", args)).contains("has the Python library's (or an "
                            + "earlier release's) layout; it is read through a copy and left as it is");
                } else {
                    assertThat(RawSqlite.schema(backup.resolve(LocalQueueDatabase.FILE_NAME)))
                            .as("the backup, in the file's own layout").isEqualTo(RawSqlite.schema(python.file()));
                }
                assertThat(Files.readAllBytes(python.file())).as(String.join(" ", args)).isEqualTo(bytes);
                if (json) {
                    String document = command.get(0).equals("tail") ? run.out().lines().findFirst().orElseThrow()
                            : run.out();
                    assertThat(JSON.readTree(document).isContainer()).isTrue();
                }
                deleteBackup(backup);
            }
        }
        assertThat(RawSqlite.schema(python.file()).keySet()).doesNotContainAnyElementsOf(
                RawSqlite.ADDED_SCHEMA_OBJECTS);
    }

    @Test
    void readsSeeThePythonRowsAsTheyAre() {
        JsonNode stats = JSON.readTree(Cli.run("stats", "--path", dir.toString(), "--queue", PythonDatabase.QUEUE,
                "--json").out());
        assertThat(stats.get("dead").asLong()).isEqualTo(11);
        assertThat(stats.get("acked").asLong()).isEqualTo(1);
        assertThat(stats.get("leased").asLong()).isEqualTo(2);

        JsonNode shown = JSON.readTree(Cli.run("failed", "show", "--path", dir.toString(), "--queue",
                PythonDatabase.QUEUE, String.valueOf(python.id(PythonDatabase.failed("rejected"))), "--json").out());
        assertThat(shown.get("failureReason").asString()).isEqualTo("rejected");
        assertThat(shown.get("headers").isEmpty()).isTrue();

        JsonNode doctor = JSON.readTree(Cli.run("doctor", "--path", dir.toString(), "--json").out());
        assertThat(doctor.get("facts").get("layout").asString()).isEqualTo("older");
        assertThat(doctor.get("facts").get("location").asString()).endsWith("(a copy taken for reading)");
    }

    @Test
    void writingCommandsRefuseWithoutUpgradeAndChangeNothing() throws Exception {
        long deadLetter = python.id(PythonDatabase.FAILED_WITHOUT_REASON);
        List<List<String>> commands = List.of(
                List.of("failed", "retry", "--queue", PythonDatabase.QUEUE, String.valueOf(deadLetter)),
                List.of("failed", "purge", "--queue", PythonDatabase.QUEUE, "--all", "--yes"),
                List.of("pause", "--queue", PythonDatabase.QUEUE),
                List.of("resume", "--queue", PythonDatabase.QUEUE),
                List.of("recurring", "disable", "nightly"),
                List.of("vacuum"));
        for (List<String> command : commands) {
            Cli run = Cli.run(args(command, false));
            assertThat(run.exitCode()).as(String.join(" ", command)).isEqualTo(LocalQueueCli.PROBLEM);
            assertThat(run.err()).as(String.join(" ", command)).contains("'" + command.get(0), "--upgrade",
                    "Python processes keep working on it");
            assertThat(Files.readAllBytes(python.file())).as(String.join(" ", command)).isEqualTo(bytes);
        }
        assertThat(dir.resolve(LocalQueueDatabase.FILE_NAME + "-wal")).satisfiesAnyOf(
                wal -> assertThat(wal).doesNotExist(), wal -> assertThat(wal).isEmptyFile());
    }

    @Test
    void withUpgradeAWriteThatIsRefusedOrNotConfirmedStillChangesNothing() throws Exception {
        long deadLetter = python.id(PythonDatabase.FAILED_WITHOUT_REASON);
        List<List<String>> commands = List.of(
                List.of("failed", "retry", "--queue", "nosuch", String.valueOf(deadLetter)),
                List.of("failed", "retry", "--queue", PythonDatabase.QUEUE, "999"),
                List.of("failed", "purge", "--queue", PythonDatabase.QUEUE, "--all"),
                List.of("recurring", "run", "nope"));
        for (List<String> command : commands) {
            List<String> args = new java.util.ArrayList<>(List.of(args(command, false)));
            args.add("--upgrade");
            Cli run = Cli.run(args.toArray(String[]::new));
            assertThat(run.exitCode()).as(String.join(" ", command)).isEqualTo(LocalQueueCli.PROBLEM);
            assertThat(Files.readAllBytes(python.file())).as(String.join(" ", command)).isEqualTo(bytes);
        }
    }

    @Test
    void withUpgradeAWritingCommandWorksOnThePythonFile() throws Exception {
        long deadLetter = python.id(PythonDatabase.FAILED_WITHOUT_REASON);
        Cli retried = Cli.run("failed", "retry", "--path", dir.toString(), "--queue", PythonDatabase.QUEUE,
                String.valueOf(deadLetter), "--upgrade");
        assertThat(retried.exitCode()).as(retried.err()).isZero();
        assertThat(RawSqlite.message(python.file(), deadLetter)).containsEntry("status", 0L)
                .containsEntry("attempts", 0L);
        assertThat(LocalQueueDatabase.isCurrentLayout(dir)).isTrue();
        assertThat(Cli.run("stats", "--path", dir.toString()).err()).doesNotContain("note:");
    }

    private String[] args(List<String> command, boolean json) {
        List<String> all = new java.util.ArrayList<>(command);
        all.add("--path");
        all.add(dir.toString());
        if (json) {
            all.add("--json");
        }
        return all.toArray(String[]::new);
    }

    private static void deleteBackup(Path backup) throws Exception {
        if (Files.exists(backup)) {
            try (var files = Files.list(backup)) {
                for (Path file : (Iterable<Path>) files::iterator) {
                    Files.delete(file);
                }
            }
            Files.delete(backup);
        }
    }
}
