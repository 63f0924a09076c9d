package io.localqueue.benchmark;

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
        List<Scenario> all = new ArrayList<>();
        if (profile.inProcess()) {
            all.add(new PutScenario());
            for (int batchSize : profile.putManyBatchSizes()) {
                all.add(new PutManyScenario(batchSize));
            }
            all.add(new GetAckScenario());
            all.add(new RoundtripScenario());
            for (int concurrency : profile.workerConcurrency()) {
                all.add(new WorkerPipelineScenario(concurrency));
            }
            all.add(new ListenerPipelineScenario(profile.listenerConcurrency()));
            all.add(new BacklogScenario());
            all.add(new ObservationScenario());
            all.add(new InProcessWakeupScenario());
            all.add(new CrossProcessWakeupScenario());
            all.add(new IdleWorkerCpuScenario());
        }
        for (Profile.Mix mix : profile.multiprocessMixes()) {
            all.add(new MultiprocessScenario(mix));
        }
        if (only.isEmpty()) {
            return all;
        }
        return all.stream().filter(scenario -> only.stream().anyMatch(scenario.name()::startsWith)).toList();
    }
}
