package io.localqueue.bus;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Apache Commons CSV is optional: a JVM without it queues and dispatches as any other, and building a CSV source there
 * fails with one error that names the artifact to add.
 */
@Tag(io.localqueue.TestDatabases.FILE_ONLY)
class CsvParserAbsentTest {

    @TempDir
    Path directory;

    @Test
    void withoutTheParserQueuesAndTheBusWorkAndACsvSourceNamesTheDependency() throws Exception {
        List<String> lines = runWithoutParser();

        assertThat(lines).containsExactly(
                "parser absent",
                "queue ok: hello",
                "bus ok",
                "csv refused: CsvSource needs Apache Commons CSV, an optional dependency of localqueue-core: add "
                        + "org.apache.commons:commons-csv to the application's dependencies (the localqueue BOM "
                        + "manages its version; on the module path, also 'requires org.apache.commons.csv;')");
    }

    private List<String> runWithoutParser() throws IOException, InterruptedException {
        String classPath = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> !entry.contains("commons-csv"))
                .collect(Collectors.joining(File.pathSeparator));
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process child = new ProcessBuilder(java.toString(), "-XX:TieredStopAtLevel=1", "-Xshare:auto", "-cp",
                classPath, WithoutCsvParserChild.class.getName(), directory.toString())
                .redirectError(directory.resolve("child.err").toFile())
                .start();
        String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(child.exitValue()).as("exit; stderr in %s", directory.resolve("child.err")).isZero();
        return out.lines().toList();
    }
}
