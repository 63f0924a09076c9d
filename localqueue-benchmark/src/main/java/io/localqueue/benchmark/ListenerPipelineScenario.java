package io.localqueue.benchmark;

import io.localqueue.DurabilityMode;
import io.localqueue.QueueStats;
import io.localqueue.WorkerObserver;
import io.localqueue.spring.LocalQueueTemplate;
import io.localqueue.spring.QueueListener;
import io.localqueue.spring.autoconfigure.LocalQueueAutoConfiguration;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.annotation.Configurations;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.MapPropertySource;

/**
 * {@code listener-pipeline-cN}: the same pipeline as the worker pipeline, through Spring: a minimal context with
 * localqueue's auto-configuration, the producer calling {@link LocalQueueTemplate#putAll} with batches of 1,000 and
 * a {@link QueueListener} method with concurrency N that does nothing; compared with the raw batched pipeline.
 */
public final class ListenerPipelineScenario extends PerModeScenario {

    /** The queue the listener consumes. */
    static final String QUEUE = "listener-pipeline";

    private final int concurrency;

    /**
     * Creates the scenario.
     *
     * @param concurrency the listener's concurrency
     */
    public ListenerPipelineScenario(int concurrency) {
        this.concurrency = concurrency;
    }

    @Override
    public String name() {
        return "listener-pipeline-c" + concurrency;
    }

    @Override
    public List<RawWorkload> baselines() {
        return List.of(RawWorkload.PIPELINE);
    }

    @Override
    protected ScenarioResult runIn(RunContext context, DurabilityMode mode) throws Exception {
        OperationLoop.Limits limits = WorkerPipelineScenario.pipelineLimits(context.profile());
        AckLedger ledger = PipelineRun.ledger(limits);
        try (AnnotationConfigApplicationContext spring = start(context.newDirectory(name()), mode, ledger)) {
            LocalQueueTemplate template = spring.getBean(LocalQueueTemplate.class);
            PipelineRun.Outcome outcome = PipelineRun.run(batch -> template.putAll(QUEUE, batch), ledger, limits);
            QueueStats stats = template.stats(QUEUE);
            Validation counts = Validation.check(stats.equals(new QueueStats(0, 0, outcome.warmups() + outcome.jobs(), 0)),
                    "queue counts " + stats);
            return WorkerPipelineScenario.pipelineResult(name(), mode, outcome)
                    .detail("listenerConcurrency", concurrency)
                    .validation(outcome.validation().and(counts))
                    .build();
        }
    }

    private AnnotationConfigApplicationContext start(Path directory, DurabilityMode mode, AckLedger ledger) {
        AnnotationConfigApplicationContext spring = new AnnotationConfigApplicationContext();
        spring.getEnvironment().getPropertySources().addFirst(new MapPropertySource("benchmark", Map.of(
                "localqueue.path", directory.toString(),
                "localqueue.durability", mode.name(),
                "localqueue.delivery.lease", RunContext.DELIVERY.lease().toString(),
                "localqueue.listener.concurrency", String.valueOf(concurrency))));
        spring.registerBean(AckLedger.class, () -> ledger);
        spring.register(Configurations.getClasses(AutoConfigurations.of(LocalQueueAutoConfiguration.class)));
        spring.register(ListenerBeans.class);
        spring.refresh();
        return spring;
    }

    /** The application side of the pipeline: the listener and the observer that records its acknowledgements. */
    @Configuration(proxyBeanMethods = false)
    static class ListenerBeans {

        @Bean
        PipelineListener pipelineListener() {
            return new PipelineListener();
        }

        @Bean
        WorkerObserver ledgerObserver(AckLedger ledger) {
            return new AckObserver(ledger::record);
        }
    }

    /** A listener that accepts every job; returning acknowledges it. */
    static class PipelineListener {

        @QueueListener(queue = QUEUE)
        public void handle(BenchMessage message) {
            // Nothing to do: the pipeline measures the queue, not the handler.
        }
    }
}
