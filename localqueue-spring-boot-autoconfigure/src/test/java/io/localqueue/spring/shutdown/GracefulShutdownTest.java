package io.localqueue.spring.shutdown;

import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.FailedMessage;
import io.localqueue.QueueStats;
import io.localqueue.SimpleQueue;
import io.localqueue.testsupport.ChildProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real Spring Boot application in a child JVM, sent SIGTERM while a listener's job uses the application's own
 * {@code DataSource} for longer than Spring's shutdown phase lasts.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class GracefulShutdownTest {

    private static final Duration WAIT = Duration.ofSeconds(90);

    @TempDir
    Path dir;

    private final List<ChildProcess> children = new ArrayList<>();
    private Path scratch;

    @AfterEach
    void stopChildren() throws IOException {
        children.forEach(ChildProcess::close);
        if (scratch != null) {
            try (Stream<Path> files = Files.walk(scratch)) {
                files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    @Test
    void sigtermStopsARunningJobWithinSpringsPhaseWhileTheApplicationsBeansAreStillOpen() throws Exception {
        List<String> events = runAndTerminate("3s");

        assertThat(events).containsSubsequence("STOPPED InterruptedException", "DATASOURCE open",
                "NEXT_PHASE_STOPPED");
        assertThat(children.get(0).stderr())
                .contains("Stopping @QueueListener 'longJob.handle': waiting up to 2400ms for 1 running job(s)");
        assertTheJobWaitsForItsNextDeliveryUnspent();
    }

    @Test
    void aShutdownTimeoutLongerThanThePhaseIsCutToFitIt() throws Exception {
        List<String> events = runAndTerminate("3s", "60s");

        assertThat(events).containsSubsequence("DATASOURCE open", "NEXT_PHASE_STOPPED");
        assertTheJobWaitsForItsNextDeliveryUnspent();
    }

    /** Starts the application on a queue holding one job, sends SIGTERM once the job runs, returns what followed. */
    private List<String> runAndTerminate(String... arguments) throws IOException {
        try (SimpleQueue<Object> queue = SimpleQueue.builder(dir).name(ShutdownChildApplication.QUEUE).build()) {
            queue.put("long-job");
        }
        scratch = Files.createTempDirectory("localqueue-shutdown-");
        List<String> words = new ArrayList<>(List.of(dir.toString()));
        words.addAll(List.of(arguments));
        ChildProcess child = ChildProcess.start("spring-app", ChildProcess.FAST_START_FLAGS, scratch,
                System.getProperty("java.class.path"), ShutdownChildApplication.class.getName(), words, WAIT);
        children.add(child);
        String line;
        do {
            line = child.nextLine();
        } while (!line.startsWith("STARTED"));

        child.terminate();

        List<String> after = child.linesUntilExit(WAIT);
        System.err.println("--- stderr of the child ---\n" + child.stderr());
        return after;
    }

    /** Handed back by the interrupted delivery, no failure recorded and the delivery not counted: ready at once. */
    private void assertTheJobWaitsForItsNextDeliveryUnspent() {
        try (SimpleQueue<Object> queue = SimpleQueue.builder(dir).name(ShutdownChildApplication.QUEUE).build()) {
            assertThat(queue.stats()).isEqualTo(new QueueStats(1, 0, 0, 0));
            assertThat(queue.listFailed()).extracting(FailedMessage::lastError).isEmpty();
            assertThat(queue.getNowait().attempts()).as("the interrupted delivery is not counted").isZero();
        }
    }
}
