package io.localqueue.samples.csvimport;

import io.localqueue.bus.CheckpointState;
import io.localqueue.bus.CsvRow;
import io.localqueue.bus.CsvSource;
import io.localqueue.bus.EventBus;
import io.localqueue.bus.ExecutionResult;
import io.localqueue.bus.ExecutionStoppedException;
import io.localqueue.bus.FailedDelivery;
import io.localqueue.bus.SourceChangedException;
import io.localqueue.bus.SourceDefinition;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.ExitCodeGenerator;
import org.springframework.stereotype.Component;

/**
 * Runs the import once the application has started: generates the CSV when it is missing, executes the source
 * {@code users:<import-id>} to completion (every row committed, every delivery acknowledged or a dead letter) while
 * the {@link UserCreator} handlers consume, and prints the execution's report. A stop in the middle (Ctrl-C) ends
 * the execution where it stands, and the next run resumes it after the last committed batch. With
 * {@code csv-import.cleanup=true} a completed import is cleaned up ({@link ImportCleanup}); a later run of the same
 * import then says so and imports nothing.
 *
 * @since 0.1.0
 */
@Component
public class UserImport implements ApplicationRunner, ExitCodeGenerator {

    /** The exit code of an import stopped before it completed, as a shell reports Ctrl-C. */
    static final int STOPPED = 130;

    /** The exit code of an import whose file changed since it began. */
    static final int SOURCE_CHANGED = 2;

    private final EventBus bus;
    private final UserApi api;
    private final CsvImportProperties properties;
    private final ImportCleanup cleanup;
    private final PrintStream out = System.out;
    private volatile int exitCode;
    private volatile @Nullable Report report;

    UserImport(EventBus bus, UserApi api, CsvImportProperties properties, ImportCleanup cleanup) {
        this.bus = bus;
        this.api = api;
        this.properties = properties;
        this.cleanup = cleanup;
    }

    /**
     * Imports the configured file, generating it first when it does not exist.
     *
     * @param args the application's arguments (unused)
     * @throws IOException when the file cannot be generated
     * @since 0.1.0
     */
    @Override
    public void run(ApplicationArguments args) throws IOException {
        Path file = properties.file().toAbsolutePath().normalize();
        if (Files.notExists(file)) {
            UsersCsv.Summary generated = UsersCsv.write(file, properties.rows());
            out.printf(Locale.ROOT, "Generated %s: %,d rows, %,d distinct users, %,d of them with an invalid email%n",
                    file, generated.rows(), generated.users(), generated.invalidUsers());
        } else {
            out.printf("Importing %s (delete it to generate a new one)%n", file);
        }
        String importId = properties.importId();
        String checkpoint = "users:" + importId;
        SourceDefinition<CsvRow> users = bus.source(CsvSource.of(file), checkpoint,
                row -> new UserCreationRequested(importId, row.get("external_id"), row.get("name"),
                        row.get("email")));
        users.config().batchSize(properties.batchSize()).maxPending(properties.maxPending());
        long rowsBefore = committedRows(checkpoint);
        if (cleanedUp(checkpoint)) {
            out.printf(Locale.ROOT, "Import %s of %s: completed and cleaned up by an earlier run (%,d rows); another "
                    + "csv-import.import-id imports the file anew%n", checkpoint, file, rowsBefore);
            return;
        }
        Instant startedAt = Instant.now();
        long started = System.nanoTime();
        ExecutionResult result;
        try {
            result = bus.execute(users);   // resumes the execution a stopped run began
        } catch (SourceChangedException changed) {
            exitCode = SOURCE_CHANGED;
            out.printf("%s changed since import %s began: %s%nGive another csv-import.import-id to import it anew.%n",
                    file, importId, changed.getMessage());
            return;
        } catch (ExecutionStoppedException stopped) {   // the application is closing (Ctrl-C)
            exitCode = STOPPED;
            out.printf(Locale.ROOT, "Import %s stopped: %,d of its rows committed, %,d users in the user API so "
                    + "far. Run the same command again to resume.%n", checkpoint, committedRows(checkpoint),
                    api.count());
            return;
        }
        Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
        ImportCleanup.Cleaned cleaned = properties.cleanup() && result.completed() ? cleanup.clean(result) : null;
        Report done = new Report(result, rowsBefore, api.created(), elapsed,
                result.completedAt() != null && result.completedAt().isBefore(startedAt), cleaned);
        report = done;
        exitCode = result.completed() ? 0 : 1;
        print(file, done);
    }

    /**
     * Returns the exit code: 0 once the import completed, dead letters included.
     *
     * @return the exit code
     * @since 0.1.0
     */
    @Override
    public int getExitCode() {
        return exitCode;
    }

    /** Returns the report of the import this run completed, or null when it did not complete one. */
    @Nullable Report report() {
        return report;
    }

    /** Tells whether the import ran to its end and its execution was deleted since: its checkpoint alone is left. */
    private boolean cleanedUp(String checkpoint) {
        return bus.checkpoint(checkpoint).inspect().isPresent()
                && bus.executions().stream().noneMatch(execution -> execution.checkpointName().equals(checkpoint));
    }

    private long committedRows(String checkpoint) {
        return bus.checkpoint(checkpoint).inspect().map(CheckpointState::itemsCommitted).orElse(0L);
    }

    private void print(Path file, Report done) {
        ExecutionResult result = done.result();
        double seconds = Math.max(done.elapsed().toNanos(), 1) / 1e9;
        long rowsNow = result.itemsCommitted() - done.rowsBefore();
        String state;
        if (!result.completed()) {
            state = "not completed";
        } else if (done.alreadyCompleted()) {
            state = "completed by an earlier run (another csv-import.import-id imports the file again)";
        } else if (result.resumed()) {
            state = String.format(Locale.ROOT, "completed, resumed (%,d rows were committed by an earlier run)",
                    done.rowsBefore());
        } else {
            state = "completed";
        }
        out.printf("Import %s of %s: %s%n", result.checkpointName(), file, state);
        out.printf(Locale.ROOT, "  rows          %,d committed in %,d batches, %,d of them by this run%n",
                result.itemsCommitted(), result.batchesCommitted(), rowsNow);
        out.printf(Locale.ROOT, "  events        %,d stored; %,d repeated rows matched a stored identity%n",
                result.deliveriesInserted(), result.deliveriesDeduplicated());
        out.printf(Locale.ROOT, "  deliveries    %,d acknowledged, %,d failed (dead letters), %,d ready, %,d in "
                + "progress%n", result.deliveriesAcknowledged(), result.deliveriesFailed(), result.deliveriesReady(),
                result.deliveriesProcessing());
        out.printf(Locale.ROOT, "  users         %,d in the user API, %,d created by this run; %,d busy refusals "
                + "retried%n", api.count(), done.usersCreated(), api.refusals());
        List<FailedDelivery> dead = bus.subscription(UserCreationRequested.NAME).listFailed(3, 0);
        for (FailedDelivery letter : dead) {
            out.printf("  dead letter   %s (%s, %s)%n", letter.lastError(), letter.reason().value(),
                    letter.failureCategory());
        }
        out.printf(Locale.ROOT, "  time          %.1f s%s%n", seconds,
                rowsNow == 0 ? "" : String.format(Locale.ROOT, ", %,.0f rows/s", rowsNow / seconds));
        ImportCleanup.Cleaned cleaned = done.cleaned();
        if (cleaned != null) {
            out.printf(Locale.ROOT, "  cleanup       execution deleted, %,d acknowledged deliveries purged, queue file "
                    + "vacuumed from %.1f MB to %.1f MB; the dead letters stay%n", cleaned.purged(),
                    cleaned.bytesBefore() / 1e6, cleaned.bytesAfter() / 1e6);
        }
    }

    /**
     * A completed run of the import.
     *
     * @param result the execution's result
     * @param rowsBefore the rows committed by earlier runs
     * @param usersCreated the users this run (this process) created
     * @param elapsed how long this run's execution took
     * @param alreadyCompleted whether an earlier run had completed the import
     * @param cleaned what the cleanup did, or null without {@code csv-import.cleanup}
     */
    record Report(ExecutionResult result, long rowsBefore, long usersCreated, Duration elapsed,
                  boolean alreadyCompleted, ImportCleanup.@Nullable Cleaned cleaned) {
    }
}
