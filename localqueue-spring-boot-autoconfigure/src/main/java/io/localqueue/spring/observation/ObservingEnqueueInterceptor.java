package io.localqueue.spring.observation;

import io.localqueue.EnqueueItem;
import io.localqueue.spring.EnqueueInterceptor;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Observes every call of a {@code LocalQueueTemplate} that writes or defers jobs
 * ({@link LocalQueueTemplateObservation#TEMPLATE}) and stores what a tracing bridge propagated into the
 * observation's carrier (the caller's {@code traceparent}, {@code baggage} and the like) as headers of each job, over
 * headers of the same name the item already had; a job id that resolves to a stored job keeps that job's headers.
 * Without a tracing bridge the jobs get no headers.
 *
 * @since 0.1.0
 */
public class ObservingEnqueueInterceptor implements EnqueueInterceptor {

    private final ObservationRegistry registry;
    private final @Nullable LocalQueueTemplateObservationConvention convention;

    /**
     * Creates the interceptor.
     *
     * @param registry where the observations go
     * @param convention replaces {@link DefaultLocalQueueTemplateObservationConvention}, or null to keep it
     * @since 0.1.0
     */
    public ObservingEnqueueInterceptor(ObservationRegistry registry,
                                       @Nullable LocalQueueTemplateObservationConvention convention) {
        this.registry = registry;
        this.convention = convention;
    }

    @Override
    public <R> R intercept(String queue, List<EnqueueItem<Object>> items,
                           Function<List<EnqueueItem<Object>>, R> write) {
        JobSenderContext context = new JobSenderContext(queue, items.size());
        Observation observation = LocalQueueTemplateObservation.TEMPLATE.observation(convention,
                DefaultLocalQueueTemplateObservationConvention.INSTANCE, () -> context, registry);
        return observation.observe(() -> write.apply(withHeaders(items, context.getHeaders())));
    }

    /** Copies the items with {@code headers} added to their own; null entries stay null. */
    private static List<EnqueueItem<Object>> withHeaders(List<EnqueueItem<Object>> items,
                                                         Map<String, String> headers) {
        if (headers.isEmpty()) {
            return items;
        }
        List<EnqueueItem<Object>> copies = new ArrayList<>(items.size());
        for (EnqueueItem<Object> item : items) {
            if (item == null) {
                copies.add(null);
            } else {
                Map<String, String> merged = new LinkedHashMap<>(item.headers());
                merged.putAll(headers);
                copies.add(item.withHeaders(merged));
            }
        }
        return copies;
    }
}
