package io.localqueue.benchmark;

import io.localqueue.DurabilityMode;
import io.localqueue.testsupport.ChildProcess;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code idle-cpu}: the CPU an idle subject costs, each measured in a child JVM ({@link IdleChild}) as process CPU
 * time over wall time, with the same JVM's idle cost without it for reference: an idle {@link io.localqueue.Worker}
 * (default poll interval) on an empty queue ({@code idle-worker-cpu}), and {@value IdleChild#SCHEDULES} recurring jobs
 * whose ticks do not fall in the measurement, with their scheduler started ({@code idle-recurring-100-cpu}).
 * Independent of durability; runs once.
 */
public final class IdleCpuScenario implements Scenario {

    /** The report section. */
    public static final String GROUP = "idle";

    @Override
    public String name() {
        return "idle-cpu";
    }

    @Override
    public List<ScenarioResult> run(RunContext context) throws Exception {
        List<ScenarioResult> results = new ArrayList<>();
        results.add(measure(context, "idle-worker-cpu", IdleChild.WORKER, "workers", 1));
        results.add(measure(context, "idle-recurring-" + IdleChild.SCHEDULES + "-cpu", IdleChild.RECURRING,
                "recurring jobs", IdleChild.SCHEDULES));
        return results;
    }

    private static ScenarioResult measure(RunContext context, String row, String subject, String unit, int count)
            throws Exception {
        context.progress(row);
        Path directory = context.newDirectory(row);
        long millis = context.profile().idleDuration().toMillis();
        List<String> idle;
        try (ChildProcess child = ChildJvms.start("idle", context.newDirectory(row + "-scratch"), IdleChild.ROLE,
                List.of("dir=" + directory, "mode=" + DurabilityMode.RELAXED, "queue=idle", "millis=" + millis,
                        IdleChild.SUBJECT + "=" + subject))) {
            idle = child.expect("IDLE", ChildJvms.DEFAULT_WAIT.plusMillis(2 * millis));
            child.awaitSuccess();
        }
        double without = Double.parseDouble(idle.get(0)) / Double.parseDouble(idle.get(1));
        double with = Double.parseDouble(idle.get(2)) / Double.parseDouble(idle.get(3));
        int cpus = Runtime.getRuntime().availableProcessors();
        boolean plausible = with >= 0 && without >= 0 && with <= cpus && without <= cpus;
        return ScenarioResult.builder(row, GROUP, null)
                .count(count, unit)
                .detail("idleSeconds", millis / 1000.0)
                .detail("cpuShareWith", with)
                .detail("cpuShareWithout", without)
                .detail("cpuShareOf", with - without)
                .validation(Validation.check(plausible, "CPU shares measured: " + with + " with " + subject + ", "
                        + without + " without"))
                .build();
    }
}
