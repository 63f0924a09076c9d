package io.localqueue.samples.csvimport;

import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.bus.ExecutionResult;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * An import whose application closes half-way, as at Ctrl-C, then starts again on the same files: the second run
 * resumes the execution after the last committed batch and every user is created once.
 */
class CsvImportResumeTest {

    private static final int ROWS = 2_000;

    /** The users the first run's API creates before it stops answering. */
    private static final int FIRST_RUN_CALLS = 300;

    private static final long WAIT_SECONDS = 30;

    @TempDir
    Path files;

    @Test
    void anImportClosedHalfWayResumesAndCreatesEveryUserOnce() throws Exception {
        AtomicReference<ConfigurableApplicationContext> firstContext = new AtomicReference<>();
        CompletableFuture<ConfigurableApplicationContext> firstRun = CompletableFuture.supplyAsync(() ->
                application(StallingUserApiConfig.class).initializers(firstContext::set).run(arguments()));

        assertThat(StallingUserApiConfig.STALLED.await(WAIT_SECONDS, TimeUnit.SECONDS))
                .as("the first run's user API stalled after %d calls", FIRST_RUN_CALLS).isTrue();
        UserImport stopped = firstContext.get().getBean(UserImport.class);
        firstContext.get().close();
        firstRun.get(WAIT_SECONDS, TimeUnit.SECONDS);

        assertThat(stopped.getExitCode()).isEqualTo(UserImport.STOPPED);
        assertThat(stopped.report()).as("no report of a run that did not complete").isNull();
        int createdByFirstRun = UsersFile.storedUsers(files.resolve("users.db")).size();
        assertThat(createdByFirstRun).isPositive().isLessThanOrEqualTo(FIRST_RUN_CALLS);

        try (ConfigurableApplicationContext second = application().run(arguments())) {
            UsersFile csv = UsersFile.read(files.resolve("users.csv"));
            UserImport.Report report = second.getBean(UserImport.class).report();
            assertThat(report).as("the second run's report").isNotNull();
            ExecutionResult result = report.result();

            assertThat(result.resumed()).isTrue();
            assertThat(result.completed()).isTrue();
            assertThat(report.rowsBefore()).as("rows the first run committed").isPositive().isLessThan(ROWS);
            assertThat(result.itemsCommitted()).isEqualTo(ROWS);
            assertThat(result.deliveriesInserted()).isEqualTo(csv.distinctUsers());
            assertThat(result.deliveriesAcknowledged()).isEqualTo(csv.validUsers().size());
            assertThat(result.deliveriesFailed()).isEqualTo(csv.invalidUsers().size());
            assertThat(UsersFile.storedUsers(files.resolve("users.db")))
                    .as("each valid user, once").containsExactlyElementsOf(csv.validUsers());
            assertThat(report.usersCreated()).isEqualTo(csv.validUsers().size() - createdByFirstRun);
            assertThat(report.elapsed()).as("the stopped run released the source: no wait for its lease")
                    .isLessThan(Duration.ofSeconds(20));
        }
    }

    private static SpringApplicationBuilder application(Class<?>... extraSources) {
        Class<?>[] sources = new Class<?>[extraSources.length + 1];
        sources[0] = CsvImportApplication.class;
        System.arraycopy(extraSources, 0, sources, 1, extraSources.length);
        return new SpringApplicationBuilder(sources).registerShutdownHook(false);
    }

    /** The run's settings, as command-line arguments: they win over application.yml. */
    private String[] arguments() {
        return new String[] {
            "--localqueue.path=" + files.resolve("data"),
            "--csv-import.file=" + files.resolve("users.csv"),
            "--csv-import.rows=" + ROWS,
            "--csv-import.batch-size=100",
            "--csv-import.max-pending=200",   // the reading waits for the handlers, so it stops mid-file
            "--localqueue.bus.execution-lease=20s",
            "--localqueue.bus.shutdown-timeout=200ms",
            "--spring.datasource.url=jdbc:sqlite:" + files.resolve("users.db") + "?busy_timeout=5000&journal_mode=WAL"
        };
    }

    /**
     * Replaces the user API by one that answers {@value #FIRST_RUN_CALLS} calls and then holds every further call
     * until the bus interrupts it at shutdown. A source of the first run only: neither a component nor a
     * configuration class, so scanning never finds it.
     */
    static class StallingUserApiConfig {

        static final CountDownLatch STALLED = new CountDownLatch(1);

        @Bean
        @Primary
        UserApi stallingUserApi(JdbcTemplate jdbc) {
            return new StallingUserApi(jdbc);
        }
    }

    static final class StallingUserApi extends UserApi {

        private final AtomicInteger calls = new AtomicInteger();
        private final CountDownLatch never = new CountDownLatch(1);

        StallingUserApi(JdbcTemplate jdbc) {
            super(jdbc);
        }

        @Override
        public boolean create(String externalId, String name, String email, String idempotencyKey) {
            if (calls.incrementAndGet() > FIRST_RUN_CALLS) {
                StallingUserApiConfig.STALLED.countDown();
                try {
                    never.await();
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while the user API stalled", interrupted);
                }
            }
            return super.create(externalId, name, email, idempotencyKey);
        }
    }
}
