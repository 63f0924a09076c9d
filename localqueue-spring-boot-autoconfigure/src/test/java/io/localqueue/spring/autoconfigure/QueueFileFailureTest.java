package io.localqueue.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.localqueue.LocalQueueDatabase;
import io.localqueue.spring.ContextRunnerTestBase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;

/**
 * A queue directory or file that cannot be used at start ends it with Boot's failure report naming
 * {@code localqueue.path}, the absolute path and what to do about that cause. Root writes through permissions, so a
 * read-only directory or file is made with a read-only mount when the tests run as root (and with permissions
 * otherwise); a directory whose parent is a regular file fails for anyone.
 */
@ExtendWith(OutputCaptureExtension.class)
class QueueFileFailureTest extends ContextRunnerTestBase {

    private static final boolean ROOT = "root".equals(System.getProperty("user.name"));

    private final Deque<String[]> cleanups = new ArrayDeque<>();

    @AfterEach
    void undoMountsAndPermissions() throws IOException {
        while (!cleanups.isEmpty()) {
            run(cleanups.pop());
        }
    }

    @Test
    void aDirectoryThatCannotBeCreatedIsReportedByItsAbsolutePath() throws IOException {
        Path plain = Files.writeString(dir.resolve("plain.txt"), "just a file");
        Path directory = plain.resolve("data");
        String relative = Path.of("").toAbsolutePath().relativize(directory).toString();

        FailureAnalysis analysis = analysisOf(relative);

        assertThat(analysis.getDescription()).startsWith("localqueue could not open its queues in localqueue.path "
                + directory + " (set as " + relative + "): cannot create queue directory " + directory);
        assertThat(analysis.getAction()).contains("Set localqueue.path to a directory the application may create "
                + "and write, or make " + directory + " one").contains("not a file");
        assertThat(Files.readString(plain)).isEqualTo("just a file");
    }

    @Test
    void aReadOnlyDirectoryIsReportedWithWhatToDoAboutItsPermissions() throws IOException {
        Path readOnly = readOnlyDirectory(dir.resolve("read-only"));

        FailureAnalysis analysis = analysisOf(readOnly.toString());

        assertThat(analysis.getDescription()).isEqualTo("localqueue could not open its queues in localqueue.path "
                + readOnly + ": queue directory " + readOnly + " is not writable");
        assertThat(analysis.getAction()).contains("the user running the application needs write access to it")
                .contains("mounted read-only");
    }

    @Test
    void aReadOnlyFileIsReportedWithWhatToDoAboutItsPermissions() throws IOException {
        Path directory = dir.resolve("queues");
        LocalQueueDatabase.open(directory).close();
        Path file = readOnlyFile(directory.resolve(LocalQueueDatabase.FILE_NAME));

        FailureAnalysis analysis = analysisOf(directory.toString());

        assertThat(analysis.getDescription()).isEqualTo("localqueue could not open its queues in localqueue.path "
                + directory + ": " + file + " is not writable");
        assertThat(analysis.getAction()).startsWith("Give the user running the application read and write access "
                + "to " + file);
    }

    @Test
    void aDamagedFileHeaderIsReportedWithWhatToDoAboutTheFileAndLeftUntouched() throws IOException {
        Path directory = Files.createDirectories(dir.resolve("queues"));
        Path file = directory.resolve(LocalQueueDatabase.FILE_NAME);
        byte[] damaged = "SQLite format 2\0 and nothing else of a database".repeat(10).getBytes();
        Files.write(file, damaged);

        FailureAnalysis analysis = analysisOf(directory.toString());

        assertThat(analysis.getDescription()).isEqualTo("localqueue could not open its queues in localqueue.path "
                + directory + ": " + file + " is not an SQLite database (it does not start with SQLite's header); "
                + "it was left untouched");
        assertThat(analysis.getAction()).contains("move it away with the -wal and -shm files beside it")
                .contains("restore it from a backup")
                .contains("If it is another application's file, set localqueue.path to a directory of localqueue's "
                        + "own");
        assertThat(Files.readAllBytes(file)).isEqualTo(damaged);
    }

    @Test
    void aRealApplicationPrintsBootsFailureReportRatherThanAStackTrace(CapturedOutput output) throws IOException {
        Path plain = Files.writeString(dir.resolve("plain.txt"), "just a file");
        SpringApplication application = new SpringApplication(Application.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        application.setDefaultProperties(Map.of("localqueue.path", plain.resolve("data").toString(),
                "spring.main.banner-mode", "off"));

        assertThatThrownBy(application::run);

        assertThat(output).contains("APPLICATION FAILED TO START")
                .contains("localqueue could not open its queues in localqueue.path " + plain.resolve("data"))
                .contains("Set localqueue.path to a directory the application may create and write");
    }

    private FailureAnalysis analysisOf(String path) {
        FailureAnalysis[] analysis = new FailureAnalysis[1];
        runner.withPropertyValues("localqueue.path=" + path).run(context -> {
            assertThat(context).hasFailed();
            analysis[0] = new UnavailableStoreFailureAnalyzer().analyze(context.getStartupFailure());
        });
        assertThat(analysis[0]).as("a failure report").isNotNull();
        return analysis[0];
    }

    /** An empty directory on a read-only file system as root, or without write permission otherwise. */
    private Path readOnlyDirectory(Path at) throws IOException {
        Files.createDirectories(at);
        if (ROOT) {
            assumeThat(run("mount", "-t", "tmpfs", "-o", "ro", "tmpfs", at.toString()))
                    .as("a read-only tmpfs can be mounted").isTrue();
            cleanups.push(new String[] {"umount", at.toString()});
        } else {
            Files.setPosixFilePermissions(at, PosixFilePermissions.fromString("r-xr-xr-x"));
            cleanups.push(new String[] {"chmod", "755", at.toString()});
        }
        return at;
    }

    /** The file bound read-only onto itself as root, or without write permission otherwise. */
    private Path readOnlyFile(Path file) throws IOException {
        if (ROOT) {
            assumeThat(run("mount", "--bind", file.toString(), file.toString())).as("a bind mount").isTrue();
            cleanups.push(new String[] {"umount", file.toString()});
            assumeThat(run("mount", "-o", "remount,ro,bind", file.toString())).as("a read-only bind mount").isTrue();
        } else {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("r--r--r--"));
            cleanups.push(new String[] {"chmod", "644", file.toString()});
        }
        return file;
    }

    private static boolean run(String... command) throws IOException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getInputStream().readAllBytes();
        try {
            return process.waitFor() == 0;
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration(LocalQueueAutoConfiguration.class)
    static class Application {
    }
}
