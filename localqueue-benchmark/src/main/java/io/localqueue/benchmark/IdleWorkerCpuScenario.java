package io.localqueue.benchmark;

import io.localqueue.testsupport.ChildProcess;
import io.localqueue.DurabilityMode;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code idle-worker-cpu}: the CPU an idle {@link io.localqueue.Worker} (default poll interval) costs, measured in a
 * child JVM ({@link IdleWorkerChild}) as process CPU time over wall time, with the same JVM's idle cost without a
 * worker for reference. Independent of durability; runs once.
 */
public final class IdleWorkerCpuScenario implements Scenario {

    /** The report section. */
    public static final String GROUP = "idle";

    @Override
    public String name() {
        return "idle-worker-cpu";
    }

    @Override
    public List<ScenarioResult> run(RunContext context) throws Exception {
        context.progress(name());
        Path directory = context.newDirectory(name());
        long millis = context.profile().idleDuration().toMillis();
        List<String> idle;
        try (ChildProcess child = ChildJvms.start("idle", context.newDirectory("idle-scratch"), IdleWorkerChild.ROLE,
                List.of("dir=" + directory, "mode=" + DurabilityMode.RELAXED, "queue=idle", "millis=" + millis))) {
            idle = child.expect("IDLE", ChildJvms.DEFAULT_WAIT.plusMillis(2 * millis));
            child.awaitSuccess();
        }
        double without = Double.parseDouble(idle.get(0)) / Double.parseDouble(idle.get(1));
        double with = Double.parseDouble(idle.get(2)) / Double.parseDouble(idle.get(3));
        int cpus = Runtime.getRuntime().availableProcessors();
        boolean plausible = with >= 0 && without >= 0 && with <= cpus && without <= cpus;
        return List.of(ScenarioResult.builder(name(), GROUP, null)
                .count(1, "workers")
                .detail("idleSeconds", millis / 1000.0)
                .detail("cpuShareWithWorker", with)
                .detail("cpuShareWithoutWorker", without)
                .detail("cpuShareOfWorker", with - without)
                .validation(Validation.check(plausible, "CPU shares measured: " + with + " with the worker, "
                        + without + " without"))
                .build());
    }
}
