package io.localqueue.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store seam's example in docs/architecture.md compiles against the seam as it stands: the test takes the text of
 * the doc's first Java block under "The store seam", puts its statements in a method whose parameters are the
 * names the prose gives them, and compiles it.
 */
class ArchitectureDocExampleTest {

    private static final Path DOC = Path.of("..", "docs", "architecture.md");
    private static final Pattern JAVA_BLOCK = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);

    @TempDir
    Path classes;

    @Test
    void theStoreSeamExampleCompiles() throws IOException, InterruptedException {
        String doc = Files.readString(DOC);
        Matcher block = JAVA_BLOCK.matcher(doc.substring(doc.indexOf("## The store seam")));
        assertThat(block.find()).as("a Java block under The store seam").isTrue();
        List<String> imports = new ArrayList<>();
        StringBuilder statements = new StringBuilder();
        for (String line : block.group(1).split("\n")) {
            if (line.startsWith("import ")) {
                imports.add(line);
            } else {
                statements.append(line).append('\n');
            }
        }
        String source = String.join("\n", imports) + """

                class SeamExample {
                    Object example(io.localqueue.internal.store.QueueStore store, Runnable ensureOpen, long now,
                                   long leaseMillis, boolean lookForExpired) {
                """ + statements + """
                        return claimed;
                    }
                }
                """;

        assertThat(compile(source)).as("the example as compiled:%n%s", source).isEmpty();
    }

    /** Compiles the source with the JDK's javac against the test class path; returns what javac printed on failure. */
    private String compile(String source) throws IOException, InterruptedException {
        Path file = classes.resolve("SeamExample.java");
        Files.writeString(file, source);
        Path javac = Path.of(System.getProperty("java.home"), "bin", "javac");
        Process process = new ProcessBuilder(javac.toString(), "-proc:none", "-classpath",
                System.getProperty("java.class.path"), "-d", classes.toString(), file.toString())
                .redirectErrorStream(true).start();
        String printed = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("javac finished").isTrue();
        return process.exitValue() == 0 ? "" : printed;
    }
}
