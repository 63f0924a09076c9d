package io.localqueue.spring.recurring;

import io.localqueue.InvalidArgumentException;
import io.localqueue.Job;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.RecurringJob;
import io.localqueue.RecurringJobs;
import io.localqueue.spring.LocalQueueProperties.RecurringOverride;
import io.localqueue.spring.LocalQueueRegistry;
import io.localqueue.spring.Recurring;
import io.localqueue.spring.listener.InvalidHandlerMethodException;
import io.localqueue.spring.listener.ListenerSignature;
import io.localqueue.spring.listener.QueueListenerEndpoint;
import io.localqueue.spring.listener.QueueListenerEndpointRegistry;
import java.lang.reflect.Method;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.SmartLifecycle;

/**
 * The application's {@code @Recurring} methods as recurring jobs: once every singleton exists it builds each one's
 * schedule (the annotation with {@code localqueue.recurring.<id>.*} over it, a bad cron or zone failing the start
 * naming the property or the method) and a listener of each queue they use; when the context starts it stores the
 * schedules, applies {@code enabled}, disables the stored schedules of those queues that no method here has
 * (orphaned: a method removed from the code), and fires ticks from this process until the context stops.
 *
 * @since 0.1.0
 */
public class RecurringMethods implements SmartInitializingSingleton, SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(RecurringMethods.class);

    /** The zone of a method that names none, under the name people write. */
    private static final ZoneId UTC = ZoneId.of("UTC");

    private final RecurringAnnotationBeanPostProcessor collector;
    private final LocalQueueRegistry queues;
    private final QueueListenerEndpointRegistry listeners;
    private final Map<String, RecurringOverride> overrides;
    private final Map<String, Scheduled> scheduled = new LinkedHashMap<>();
    private final Map<String, RecurringDispatcher> dispatchers = new LinkedHashMap<>();
    private @Nullable RecurringJobs jobs;
    private boolean handedOver;

    /** A method with the schedule built for it and whether the configuration enables or disables it. */
    private record Scheduled(RecurringMethod method, RecurringJob job, @Nullable Boolean enabled) {
    }

    /**
     * Creates the recurring jobs of the methods the collector finds.
     *
     * @param collector where the methods are collected
     * @param queues the application's queues
     * @param listeners where each queue's listener is registered
     * @param overrides the configuration of each recurring job id ({@code localqueue.recurring.<id>.*})
     */
    public RecurringMethods(RecurringAnnotationBeanPostProcessor collector, LocalQueueRegistry queues,
                            QueueListenerEndpointRegistry listeners, Map<String, RecurringOverride> overrides) {
        this.collector = collector;
        this.queues = queues;
        this.listeners = listeners;
        this.overrides = overrides;
    }

    @Override
    public void afterSingletonsInstantiated() {
        synchronized (this) {
            if (handedOver) {
                return;
            }
            handedOver = true;
        }
        collector.handOver(this::add);
        refuseUnknownIds();
    }

    /** Fails the start for configuration of an id no method has: a typo would otherwise be silently ignored. */
    private synchronized void refuseUnknownIds() {
        for (Map.Entry<String, RecurringOverride> configured : overrides.entrySet()) {
            if (!scheduled.containsKey(configured.getKey())) {
                RecurringOverride override = configured.getValue();
                String name = override.getCron() != null ? "cron" : override.getZone() != null ? "zone" : "enabled";
                Object value = override.getCron() != null ? override.getCron()
                        : override.getZone() != null ? override.getZone() : override.getEnabled();
                throw new InvalidConfigurationPropertyValueException(property(configured.getKey(), name), value,
                        "no @Recurring method of this application has the id '" + configured.getKey()
                                + "'; the ids are " + scheduled.keySet());
            }
        }
    }

    private synchronized void add(RecurringMethod method) {
        Scheduled existing = scheduled.get(method.id());
        if (existing != null) {
            throw new InvalidHandlerMethodException("@Recurring", method.where(), "has the id '" + method.id()
                    + "' of " + existing.method().where() + " too");
        }
        RecurringOverride override = overrides.get(method.id());
        String queue = method.queue().isEmpty() ? Recurring.DEFAULT_QUEUE : method.queue();
        RecurringJob job = RecurringJob.builder(method.id(), cron(method, override))
                .zone(zone(method, override))
                .missedTicks(missedTicks(method))
                .allowOverlap(allowOverlap(method))
                .enqueue(queues.queue(queue, String.class), method.id())
                .build();
        scheduled.put(method.id(), new Scheduled(method, job, override == null ? null : override.getEnabled()));
        dispatchers.computeIfAbsent(queue, this::listen).add(method);
        RecurringJobs running = jobs;
        if (running != null) {
            store(running, scheduled.get(method.id()));
        }
    }

    /** Registers the listener that runs the methods of a queue's jobs. */
    private RecurringDispatcher listen(String queue) {
        RecurringDispatcher dispatcher = new RecurringDispatcher(queue);
        Method run;
        try {
            run = RecurringDispatcher.class.getMethod("run", Job.class);
        } catch (NoSuchMethodException impossible) {
            throw new IllegalStateException(impossible);
        }
        String id = "recurring:" + queue;
        listeners.register(new QueueListenerEndpoint(id, queue, dispatcher, run,
                ListenerSignature.of(run, RecurringDispatcher.class, false, id), null, null,
                List.of(RecurringDispatcher.UnknownRecurringJobException.class), null, null, null, null));
        return dispatcher;
    }

    private static String cron(RecurringMethod method, @Nullable RecurringOverride override) {
        String property = property(method, "cron");
        String cron = override != null && override.getCron() != null ? override.getCron().trim() : method.cron();
        boolean configured = override != null && override.getCron() != null;
        if (cron.isEmpty()) {
            if (configured) {
                throw new InvalidConfigurationPropertyValueException(property, cron, "a cron expression is needed");
            }
            throw new InvalidHandlerMethodException("@Recurring", method.where(), "has no cron; set cron, or "
                    + property);
        }
        try {
            RecurringJob.builder(method.id(), cron);
        } catch (InvalidArgumentException bad) {
            if (configured) {
                throw new InvalidConfigurationPropertyValueException(property, cron, bad.getMessage());
            }
            throw new InvalidHandlerMethodException("@Recurring", method.where(), "has an invalid cron: "
                    + bad.getMessage(), bad);
        }
        return cron;
    }

    private static ZoneId zone(RecurringMethod method, @Nullable RecurringOverride override) {
        boolean configured = override != null && override.getZone() != null;
        String zone = configured ? override.getZone().trim() : method.zone();
        if (zone.isEmpty() && !configured) {
            return UTC;
        }
        try {
            return ZoneId.of(zone);
        } catch (DateTimeException bad) {
            if (configured) {
                throw new InvalidConfigurationPropertyValueException(property(method, "zone"), zone,
                        "not a time zone id such as UTC or Europe/Paris: " + bad.getMessage());
            }
            throw new InvalidHandlerMethodException("@Recurring", method.where(), "has zone '" + zone
                    + "', not a time zone id such as UTC or Europe/Paris", bad);
        }
    }

    private static RecurringJob.MissedTicks missedTicks(RecurringMethod method) {
        if (method.missedTicks().isEmpty()) {
            return RecurringJob.MissedTicks.RUN_ONCE;
        }
        try {
            return RecurringJob.MissedTicks.valueOf(method.missedTicks().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException bad) {
            throw new InvalidHandlerMethodException("@Recurring", method.where(), "has missedTicks '"
                    + method.missedTicks() + "'; it must be RUN_ONCE or SKIP", bad);
        }
    }

    private static boolean allowOverlap(RecurringMethod method) {
        return switch (method.allowOverlap().toLowerCase(Locale.ROOT)) {
            case "", "false" -> false;
            case "true" -> true;
            default -> throw new InvalidHandlerMethodException("@Recurring", method.where(), "has allowOverlap '"
                    + method.allowOverlap() + "'; it must be true or false");
        };
    }

    private static String property(RecurringMethod method, String name) {
        return property(method.id(), name);
    }

    private static String property(String id, String name) {
        return "localqueue.recurring." + (id.contains(".") ? "[" + id + "]" : id) + "." + name;
    }

    /**
     * Stores every schedule, applies the configured {@code enabled}, disables the orphaned schedules of the queues
     * this application runs, and fires ticks from this process.
     */
    @Override
    public void start() {
        List<Scheduled> all;
        RecurringJobs started;
        synchronized (this) {
            if (jobs != null) {
                return;
            }
            started = RecurringJobs.on(queues.database(), queues.clock());
            all = new ArrayList<>(scheduled.values());
            jobs = started;
        }
        if (all.isEmpty()) {
            return; // the handle serves the Actuator; this application fires no ticks without methods of its own
        }
        all.forEach(each -> store(started, each));
        for (String orphan : orphans(started)) {
            if (started.disable(orphan)) {
                log.warn("Recurring job '{}' has no @Recurring method in this application: disabled. Delete it, or"
                        + " enable it again once a method has its id", orphan);
            }
        }
        started.start();
    }

    private static void store(RecurringJobs jobs, Scheduled each) {
        String id = each.method().id();
        RecurringJob before = jobs.find(id);
        RecurringJob stored = jobs.schedule(each.job());
        if (before != null && (!before.cron().equals(stored.cron()) || !before.zone().equals(stored.zone()))) {
            log.info("Recurring job '{}' now fires on '{}' in {} for every instance, as this one is configured (was"
                    + " '{}' in {})", id, stored.cron(), stored.zone(), before.cron(), before.zone());
        }
        if (Boolean.TRUE.equals(each.enabled())) {
            jobs.enable(id);
        } else if (Boolean.FALSE.equals(each.enabled())) {
            jobs.disable(id);
            log.info("Recurring job '{}' of {} is disabled for every instance by {}=false", id, each.method().where(),
                    property(each.method(), "enabled"));
        } else if (!stored.isEnabled()) {
            log.info("Recurring job '{}' of {} is disabled: enable it through the Actuator or with {}=true",
                    each.method().id(), each.method().where(), property(each.method(), "enabled"));
        }
    }

    /**
     * Lists the stored recurring jobs that enqueue into a queue this application's methods run but that no method of
     * it has: removed from the code since they were stored.
     *
     * @return their ids, in order; empty before the context starts
     */
    public synchronized Set<String> orphans() {
        return jobs == null ? Set.of() : orphans(jobs);
    }

    private synchronized Set<String> orphans(RecurringJobs stored) {
        Set<String> orphans = new TreeSet<>();
        for (RecurringJob job : stored.list()) {
            if (isOrphaned(job)) {
                orphans.add(job.id());
            }
        }
        return orphans;
    }

    /**
     * Tells whether a stored recurring job enqueues into a queue this application's methods run while no method of it
     * has its id, without reading the database again.
     *
     * @param job a stored recurring job
     * @return true for an orphan
     */
    public synchronized boolean isOrphaned(RecurringJob job) {
        return dispatchers.containsKey(job.queue()) && !scheduled.containsKey(job.id());
    }

    /**
     * Returns the recurring jobs of the database, to list and control them.
     *
     * @return the handle, or null before the context starts
     */
    public synchronized @Nullable RecurringJobs jobs() {
        return jobs;
    }

    @Override
    public void stop() {
        RecurringJobs running;
        synchronized (this) {
            running = jobs;
            jobs = null;
        }
        if (running != null) {
            running.close();
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return jobs != null;
    }

    /** Starts with the listeners, so that the first tick finds its listener. */
    @Override
    public int getPhase() {
        return QueueListenerEndpointRegistry.PHASE;
    }
}
