package io.localqueue.spring.listener;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.context.SmartLifecycle;

/**
 * Starts the {@code @QueueListener} containers after every other bean is ready (a late lifecycle phase) and stops
 * them first on shutdown, all at once, each waiting up to its shutdown timeout for running invocations, but never
 * past Spring's timeout for this phase when it is known: Spring would otherwise stop the next phases and close the
 * application's beans under jobs still running. A listener whose bean is created after the context started (lazy
 * initialization, {@code @Lazy}, a scoped bean) gets its container then, started at once while the registry runs.
 *
 * @since 0.1.0
 */
public class QueueListenerEndpointRegistry implements SmartLifecycle, SmartInitializingSingleton, DisposableBean {

    /** Starts after, and stops before, ordinary lifecycle beans such as web servers' graceful shutdown. */
    public static final int PHASE = Integer.MAX_VALUE - 1000;

    private static final Logger log = LoggerFactory.getLogger(QueueListenerEndpointRegistry.class);

    private final QueueListenerAnnotationBeanPostProcessor collector;
    private final BeanFactory beanFactory;
    private final QueueListenerContainerFactory defaultFactory;
    private final Map<String, QueueListenerContainer> containers = new LinkedHashMap<>();
    private volatile boolean running;
    private volatile boolean autoStartup = true;
    private boolean handedOver;
    private volatile @Nullable ShutdownPhase shutdownPhase;

    /**
     * Creates the registry.
     *
     * @param collector where the annotated endpoints are collected
     * @param beanFactory where named container factories are looked up
     * @param defaultFactory the factory of endpoints that name none
     */
    public QueueListenerEndpointRegistry(QueueListenerAnnotationBeanPostProcessor collector, BeanFactory beanFactory,
                                         QueueListenerContainerFactory defaultFactory) {
        this.collector = collector;
        this.beanFactory = beanFactory;
        this.defaultFactory = defaultFactory;
    }

    /**
     * Tells the registry how long Spring waits for its shutdown phase ({@code spring.lifecycle.timeout-per-shutdown-phase}
     * in Spring Boot): stops then wait at most {@link ShutdownPhase#maxWait(Duration)} of it, and starting warns once,
     * naming every listener whose own shutdown timeout is longer. Null, the default, leaves each listener its own
     * timeout.
     *
     * @param phaseTimeout the phase's timeout, zero or more, or null when unknown
     */
    public void setShutdownPhaseTimeout(@Nullable Duration phaseTimeout) {
        this.shutdownPhase = phaseTimeout == null ? null : new ShutdownPhase(phaseTimeout);
    }

    /**
     * Builds the containers of the listeners found so far, once every singleton exists and before any lifecycle bean
     * (the web server included) starts, so that a misconfigured listener fails the start before the server serves.
     */
    @Override
    public void afterSingletonsInstantiated() {
        takeOverEndpoints();
    }

    @Override
    public void start() {
        takeOverEndpoints();
        synchronized (this) {
            warnIfLongerThanThePhase(containers.values());
            for (QueueListenerContainer container : containers.values()) {
                startIfAutomatic(container);
            }
            running = true;
        }
    }

    /** Registers every endpoint found so far, and from then on each one as it is found; once. */
    private void takeOverEndpoints() {
        synchronized (this) {
            if (handedOver) {
                return;
            }
            handedOver = true;
        }
        collector.handOver(this::register);
    }

    /**
     * Adds a listener's container, started at once when the registry runs and the listener starts automatically.
     *
     * @param endpoint the listener
     * @throws IllegalStateException when another listener has the same id
     */
    public synchronized void register(QueueListenerEndpoint endpoint) {
        QueueListenerContainer existing = containers.get(endpoint.id());
        if (existing != null) {
            if (existing.endpoint() != endpoint) {
                throw new IllegalStateException("two @QueueListener methods have the id '" + endpoint.id() + "'");
            }
            return;
        }
        QueueListenerContainer container = factoryFor(endpoint).createContainer(endpoint);
        containers.put(endpoint.id(), container);
        if (running) {
            warnIfLongerThanThePhase(List.of(container));
            startIfAutomatic(container);
        }
    }

    private void startIfAutomatic(QueueListenerContainer container) {
        if (container.isAutoStartup() && !container.isRunning()) {
            container.start();
            log.debug("Started @QueueListener '{}' on queue '{}'", container.endpoint().id(),
                    container.endpoint().queue());
        }
    }

    @Override
    public void stop() {
        stopAll();
    }

    @Override
    public void stop(Runnable callback) {
        ShutdownPhase.stopInBackground("localqueue-listener-stop", this::stopAll, callback);
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /**
     * Sets whether the context starts the listeners when it starts; false leaves every container stopped, whatever
     * its own auto-startup says, until {@link #start()} is called (a test that runs listeners on its own thread, with
     * {@link QueueListenerContainer#runOnce()}, wants that). Default true.
     *
     * @param autoStartup the flag
     * @since 0.1.0
     */
    public void setAutoStartup(boolean autoStartup) {
        this.autoStartup = autoStartup;
    }

    @Override
    public boolean isAutoStartup() {
        return autoStartup;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }

    @Override
    public void destroy() {
        stopAll();
    }

    /**
     * Returns the container of a listener.
     *
     * @param id the listener id
     * @return the container, or null when no listener has that id
     */
    public synchronized @Nullable QueueListenerContainer getListenerContainer(String id) {
        return containers.get(id);
    }

    /**
     * Returns every listener container.
     *
     * @return the containers, in discovery order
     */
    public synchronized Collection<QueueListenerContainer> getListenerContainers() {
        return Collections.unmodifiableList(new ArrayList<>(containers.values()));
    }

    private void stopAll() {
        List<QueueListenerContainer> all;
        synchronized (this) {
            running = false;
            all = new ArrayList<>(containers.values());
        }
        ShutdownPhase phase = shutdownPhase;
        List<CompletableFuture<Void>> stops = new ArrayList<>();
        for (QueueListenerContainer container : all) {
            Duration wait = phase == null ? container.shutdownTimeout() : phase.maxWait();
            int running = container.activeJobs();
            if (running > 0 && container.isRunning()) {
                log.info("Stopping @QueueListener '{}': waiting up to {} for {} running job(s)",
                        container.endpoint().id(), ShutdownPhase.print(container.within(wait)), running);
            }
            stops.add(ShutdownPhase.inThread("localqueue-listener-stop-" + container.endpoint().id(),
                    () -> container.stop(wait)));
        }
        CompletableFuture.allOf(stops.toArray(new CompletableFuture<?>[0])).join();
    }

    /**
     * Warns once in all, naming these listeners, when any of them would wait for its jobs longer than Spring waits for
     * this phase.
     */
    private void warnIfLongerThanThePhase(Collection<QueueListenerContainer> candidates) {
        ShutdownPhase phase = shutdownPhase;
        if (phase == null) {
            return;
        }
        List<String> cut = new ArrayList<>();
        Duration longest = Duration.ZERO;
        for (QueueListenerContainer container : candidates) {
            Duration wanted = container.shutdownTimeout();
            if (!phase.fit(wanted).equals(wanted)) {
                cut.add("'" + container.endpoint().id() + "'");
                longest = wanted.compareTo(longest) > 0 ? wanted : longest;
            }
        }
        if (!cut.isEmpty()) {
            phase.warnIfCut(log, "@QueueListener " + String.join(", ", cut), "jobs",
                    "localqueue.listener.shutdown-timeout or its factory's setShutdownTimeout", longest);
        }
    }

    private QueueListenerContainerFactory factoryFor(QueueListenerEndpoint endpoint) {
        String name = endpoint.containerFactory();
        return name == null ? defaultFactory : beanFactory.getBean(name, QueueListenerContainerFactory.class);
    }
}
