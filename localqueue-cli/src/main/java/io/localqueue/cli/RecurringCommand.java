package io.localqueue.cli;

import io.localqueue.LocalQueueDatabase;
import io.localqueue.RecurringJob;
import io.localqueue.RecurringJobs;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code localqueue recurring}: the recurring jobs of the file or schema, to list, enable, disable or run now. */
@Command(name = "recurring", mixinStandardHelpOptions = true,
        description = "Lists, enables, disables or runs now the recurring jobs.",
        subcommands = {RecurringCommand.ListAll.class, RecurringCommand.Enable.class, RecurringCommand.Disable.class,
                RecurringCommand.Run.class})
final class RecurringCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "name what to do: recurring list, enable, "
                + "disable or run");
    }

    /** A recurring job under its JSON names. */
    static Map<String, @Nullable Object> fields(RecurringJob job) {
        Map<String, @Nullable Object> fields = new LinkedHashMap<>();
        fields.put("id", job.id());
        fields.put("queue", job.queue());
        fields.put("cron", job.cron());
        fields.put("zone", job.zone().getId());
        fields.put("enabled", job.isEnabled());
        fields.put("missedTicks", job.missedTicks().name().toLowerCase(java.util.Locale.ROOT));
        fields.put("allowOverlap", job.allowsOverlap());
        fields.put("lastTick", Jobs.time(job.lastTick()));
        fields.put("lastFiredAt", Jobs.time(job.lastFiredAt()));
        fields.put("lastJobId", job.lastJobId());
        fields.put("nextTick", Jobs.time(job.nextTick()));
        return fields;
    }

    /** {@code recurring list}. */
    @Command(name = "list", mixinStandardHelpOptions = true, description = "Lists the recurring jobs.")
    static final class ListAll extends TargetCommand {

        @Override
        public void run() {
            try (LocalQueueDatabase database = open(); RecurringJobs recurring = RecurringJobs.on(database)) {
                List<RecurringJob> jobs = recurring.list();
                List<List<String>> rows = jobs.stream().map(job -> List.of(job.id(),
                        job.queue(), job.cron(), job.zone().getId(), job.isEnabled() ? "yes" : "no",
                        Output.cell(Jobs.time(job.lastTick())), Output.cell(Jobs.time(job.nextTick())),
                        Output.cell(job.lastJobId()))).toList();
                output.print(out(), Map.of("recurring", jobs.stream().map(RecurringCommand::fields).toList()),
                        List.of("ID", "QUEUE", "CRON", "ZONE", "ENABLED", "LAST_TICK", "NEXT_TICK",
                                "LAST_JOB"), rows);
            }
        }
    }

    /** What {@code enable}, {@code disable} and {@code run} share: one recurring job by id, written. */
    abstract static class Change extends TargetCommand {

        @Parameters(paramLabel = "ID", description = "The recurring job's id.")
        String id;

        /** Does the change; false, or null, when no recurring job has the id. */
        abstract @Nullable Object change(RecurringJobs recurring);

        /** What was done, for the line a person reads. */
        abstract String done(Object result);

        @Override
        public void run() {
            try (LocalQueueDatabase database = openToCheck(); RecurringJobs recurring = RecurringJobs.on(database)) {
                if (recurring.find(id) == null) {
                    throw new CliProblem("no recurring job '" + id + "'; 'recurring list' lists them");
                }
            }
            try (LocalQueueDatabase database = openForWriting(); RecurringJobs recurring = RecurringJobs.on(database)) {
                Object result = change(recurring);
                if (result == null || Boolean.FALSE.equals(result) && recurring.find(id) == null) {
                    throw new CliProblem("recurring job '" + id + "' was deleted meanwhile");
                }
                RecurringJob job = recurring.find(id);
                if (output.json) {
                    Map<String, @Nullable Object> document = new LinkedHashMap<>(fields(job));
                    if (result instanceof Long jobId) {
                        document.put("enqueuedJobId", jobId);
                    }
                    output.print(out(), document);
                } else {
                    out().println(done(result));
                    out().flush();
                }
            }
        }
    }

    /** {@code recurring enable} and, as its subclass, {@code recurring disable}. */
    @Command(name = "enable", mixinStandardHelpOptions = true, description = "Lets a recurring job fire again.")
    static class Enable extends Change {

        /** Whether this command enables (true) or disables. */
        boolean enables() {
            return true;
        }

        @Override
        Object change(RecurringJobs recurring) {
            return enables() ? recurring.enable(id) : recurring.disable(id);
        }

        @Override
        String done(Object changed) {
            String state = enables() ? "enabled" : "disabled";
            return id + (Boolean.TRUE.equals(changed) ? " is " + state : " was " + state + " already");
        }
    }

    /** {@code recurring disable}. */
    @Command(name = "disable", mixinStandardHelpOptions = true,
            description = "Stops a recurring job from firing until it is enabled.")
    static final class Disable extends Enable {

        @Override
        boolean enables() {
            return false;
        }
    }

    /** {@code recurring run}. */
    @Command(name = "run", mixinStandardHelpOptions = true,
            description = "Enqueues a recurring job's job now, enabled or not, without moving its schedule.")
    static final class Run extends Change {

        @Override
        @Nullable Object change(RecurringJobs recurring) {
            return recurring.runNow(id);
        }

        @Override
        String done(Object jobId) {
            return id + " enqueued job " + jobId;
        }
    }
}
