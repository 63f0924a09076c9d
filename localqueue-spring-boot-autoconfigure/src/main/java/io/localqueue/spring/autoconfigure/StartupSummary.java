package io.localqueue.spring.autoconfigure;

import io.localqueue.LocalQueueDatabase;
import io.localqueue.bus.EventBus;
import io.localqueue.spring.listener.QueueListenerContainer;
import io.localqueue.spring.listener.QueueListenerEndpointRegistry;
import io.localqueue.spring.recurring.RecurringDispatcher;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationContextAware;
import org.springframework.context.ApplicationListener;
import org.springframework.context.event.ContextRefreshedEvent;

/**
 * Logs one INFO line once the application's context has started: where the queues are (the file's absolute path, or
 * the PostgreSQL URL, without credentials as every location, and schema), how many {@code @QueueListener} methods consume which queues,
 * and whether the event bus consumes, and which subscriptions.
 */
final class StartupSummary implements ApplicationListener<ContextRefreshedEvent>, ApplicationContextAware {

    private static final Logger log = LoggerFactory.getLogger(StartupSummary.class);

    private final ObjectProvider<LocalQueueDatabase> database;
    private final ObjectProvider<QueueListenerEndpointRegistry> listeners;
    private final ObjectProvider<EventBus> bus;
    private final boolean busAutoStartup;
    private final AtomicBoolean logged = new AtomicBoolean();
    private @Nullable ApplicationContext context;

    StartupSummary(ObjectProvider<LocalQueueDatabase> database, ObjectProvider<QueueListenerEndpointRegistry> listeners,
                   ObjectProvider<EventBus> bus, boolean busAutoStartup) {
        this.database = database;
        this.listeners = listeners;
        this.bus = bus;
        this.busAutoStartup = busAutoStartup;
    }

    @Override
    public void setApplicationContext(ApplicationContext context) {
        this.context = context;
    }

    /** Logs once, for this context's own start (a child context's refresh reaches its parent's listeners too). */
    @Override
    public void onApplicationEvent(ContextRefreshedEvent event) {
        if (event.getApplicationContext() == context && logged.compareAndSet(false, true)) {
            log.info("localqueue started: {}; {}; {}", store(), listeners(), bus());
        }
    }

    private String store() {
        LocalQueueDatabase queues = database.getIfUnique();
        if (queues == null) {
            return "no queue database";
        }
        return queues.isFile() ? "queues in " + queues.file() + " (SQLite " + queues.engineVersion() + ")"
                : "queues in " + queues.engine() + " " + queues.engineVersion() + " at "
                + queues.location();
    }

    private String listeners() {
        QueueListenerEndpointRegistry registry = listeners.getIfUnique();
        Collection<QueueListenerContainer> containers = registry == null ? List.of()
                : registry.getListenerContainers();
        Set<String> queues = new TreeSet<>();
        Set<String> recurringQueues = new TreeSet<>();
        int methods = 0;
        int recurring = 0;
        for (QueueListenerContainer container : containers) {
            if (container.endpoint().bean() instanceof RecurringDispatcher dispatcher) {
                recurring += dispatcher.methods();
                recurringQueues.add(container.endpoint().queue());
            } else {
                methods++;
                queues.add(container.endpoint().queue());
            }
        }
        String listening = methods == 0 ? "no @QueueListener methods" : counted(methods, "@QueueListener", queues);
        return recurring == 0 ? listening : listening + "; " + counted(recurring, "@Recurring", recurringQueues);
    }

    private static String counted(int methods, String annotation, Set<String> queues) {
        return methods + " " + annotation + " method" + (methods == 1 ? "" : "s") + " on queue"
                + (queues.size() == 1 ? " " : "s ") + String.join(", ", queues);
    }

    private String bus() {
        EventBus events = bus.getIfUnique();
        if (events == null) {
            return "no event bus (localqueue.bus.enabled=false)";
        }
        String name = "event bus '" + events.name() + "'";
        if (!events.isRunning()) {
            return name + " not consuming" + (busAutoStartup ? "" : " (localqueue.bus.auto-startup=false)");
        }
        List<String> consuming = events.topology().subscriptionNames().stream()
                .filter(subscription -> events.subscription(subscription).consuming()).sorted().toList();
        return consuming.isEmpty() ? name + " running, with no handlers to consume"
                : name + " consuming " + String.join(", ", consuming);
    }
}
