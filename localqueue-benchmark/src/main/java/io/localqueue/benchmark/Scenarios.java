package io.localqueue.benchmark;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The scenarios of a profile, in run order.
 */
final class Scenarios {

    private Scenarios() {
    }

    /**
     * Lists a profile's scenarios.
     *
     * @param profile the profile
     * @param only name prefixes to keep, or empty for all
     * @return the scenarios in run order
     */
    static List<Scenario> of(Profile profile, List<String> only) {
        return of(profile, only, BenchStore.Sqlite.NAME);
    }

    /**
     * Lists a profile's scenarios on a store. On PostgreSQL these are the scenarios that ask the run's store for their
     * queues: the single operations, the Worker pipelines, the multiprocess mixes, and the drains of a preloaded
     * queue by one or more consumer JVMs; the others (the Spring listener pipeline, the backlog, the observation
     * reads, the dashboard's reads, wake-ups, idle CPU, the event bus) are SQLite's only.
     *
     * @param profile the profile
     * @param only name prefixes to keep, or empty for all
     * @param store the store's name
     * @return the scenarios in run order
     */
    static List<Scenario> of(Profile profile, List<String> only, String store) {
        List<Scenario> all = store.equals(PostgresBenchStore.NAME) ? onServer(profile) : onFile(profile);
        if (only.isEmpty()) {
            return all;
        }
        return all.stream().filter(scenario -> only.stream().anyMatch(scenario.name()::startsWith)).toList();
    }

    private static List<Scenario> onServer(Profile profile) {
        List<Scenario> all = new ArrayList<>();
        if (profile.inProcess()) {
            addOperationsAndPipelines(profile, all);
        }
        for (Profile.Mix mix : profile.multiprocessMixes()) {
            all.add(new MultiprocessScenario(mix));
        }
        if (!profile.drainConsumers().isEmpty()) {
            for (Duration pause : ConsumerDrainScenario.HANDLER_PAUSES) {
                all.add(new ConsumerDrainScenario(profile.drainConsumers(), pause));
            }
        }
        return all;
    }

    /** The scenarios both stores run in process: the single operations, then the Worker pipelines. */
    private static void addOperationsAndPipelines(Profile profile, List<Scenario> all) {
        all.add(PutScenario.plain());
        all.add(PutScenario.delayed());
        all.add(PutScenario.prioritized());
        for (int batchSize : profile.putManyBatchSizes()) {
            all.add(new PutManyScenario(batchSize));
        }
        all.add(new ProducerThreadsScenario());
        all.add(new GetAckScenario());
        all.add(new RoundtripScenario());
        for (int concurrency : profile.workerConcurrency()) {
            all.add(new WorkerPipelineScenario(concurrency));
        }
    }

    private static List<Scenario> onFile(Profile profile) {
        List<Scenario> all = new ArrayList<>();
        if (profile.inProcess()) {
            addOperationsAndPipelines(profile, all);
            all.add(new ListenerPipelineScenario(profile.listenerConcurrency()));
            all.add(new BacklogScenario());
            all.add(new RetentionScenario());
            all.add(new LimitsScenario());
            all.add(new ObservationScenario());
            all.add(new DashboardScenario());
            all.add(new InProcessWakeupScenario(false));
            all.add(new CrossProcessWakeupScenario(false));
            all.add(new InProcessWakeupScenario(true));
            all.add(new CrossProcessWakeupScenario(true));
            all.add(new IdleCpuScenario());
        }
        if (profile.busRows() > 0) {
            for (int batch : List.of(100, 1_000, 10_000)) {
                all.add(new BusIngestScenario(batch, 1, false));
            }
            all.add(new BusIngestScenario(1_000, 5, false));
            all.add(new BusIngestScenario(1_000, 1, true));
            all.add(new BusIngestScenario(1_000, 5, true));
            all.add(new BusDispatchScenario(false));
            all.add(new BusDispatchScenario(true));
            all.add(new ProducerThreadsScenario(true));
            all.add(new BusDrainScenario(4));
            all.add(new BusPipelineScenario(4, false));
            all.add(new BusPipelineScenario(4, true));
            all.add(new BusExecuteScenario());
        }
        for (Profile.Mix mix : profile.multiprocessMixes()) {
            all.add(new MultiprocessScenario(mix));
        }
        return all;
    }
}
