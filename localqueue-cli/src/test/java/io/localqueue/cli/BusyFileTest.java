package io.localqueue.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.QueueStats;
import io.localqueue.SimpleQueue;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Commands run, reading and writing, while a Worker in another JVM is busy on the same file: every command succeeds,
 * and the application loses nothing and meets no busy file, no lost lease and no error.
 */
class BusyFileTest {

    private static final int JOBS = 3_000;

    @TempDir
    Path dir;

    @TempDir
    Path backups;

    @Test
    void commandsWorkBesideABusyWorkerInAnotherJvmWhichLosesNothing() throws Exception {
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), WorkerChild.class.getName(), dir.toString(),
                String.valueOf(JOBS)).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.UTF_8))) {
            assertThat(lines.readLine()).isEqualTo(WorkerChild.READY);
            String path = dir.toString();
            String queue = WorkerChild.QUEUE;
            List<Cli> runs = new ArrayList<>();
            int round = 0;
            while (child.isAlive() && round < 40) {
                runs.add(Cli.run("stats", "--path", path, "--queue", queue));
                runs.add(Cli.run("jobs", "--path", path, "--queue", queue, "--state", "leased", "--json"));
                runs.add(Cli.run("failed", "list", "--path", path, "--queue", queue));
                runs.add(Cli.run("pause", "--path", path, "--queue", queue));
                runs.add(Cli.run("resume", "--path", path, "--queue", queue));
                runs.add(Cli.run("check", "--path", path, "--quick"));
                runs.add(Cli.run("backup", "--path", path, backups.resolve("b" + round).toString()));
                if (round == 0) {
                    runs.add(Cli.run("tail", "--path", path, "--queue", queue, "--for", "500ms", "--interval",
                            "100ms", "--json"));
                }
                if (round % 10 == 0) {
                    runs.add(Cli.run("vacuum", "--path", path));
                    runs.add(Cli.run("doctor", "--path", path));
                }
                round++;
            }
            assertThat(runs).as("commands run while the application worked").hasSizeGreaterThanOrEqualTo(7);
            assertThat(runs).allSatisfy(run -> assertThat(run.exitCode()).as(run.err()).isZero());
            assertThat(child.waitFor(180, TimeUnit.SECONDS)).isTrue();
            assertThat(child.exitValue()).as("the application's exit status").isZero();
            assertThat(lines.readLine()).isEqualTo(WorkerChild.DONE);
        } finally {
            child.destroyForcibly();
        }
        try (SimpleQueue<Object> work = SimpleQueue.builder(dir).name(WorkerChild.QUEUE).build()) {
            assertThat(work.stats()).isEqualTo(new QueueStats(0, 0, JOBS, 0));
        }
    }
}
