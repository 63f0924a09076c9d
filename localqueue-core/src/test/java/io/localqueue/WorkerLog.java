package io.localqueue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * Captures what {@link Worker} logs, so a test can wait for a heartbeat to have noticed a lost lease, or what any
 * other logger logs; public, so that tests of other packages and modules capture logs the same way.
 */
public final class WorkerLog implements AutoCloseable {

    private final Logger logger;
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

    public WorkerLog() {
        this(Worker.class);
    }

    /** Captures what the logger of {@code source} logs instead. */
    public WorkerLog(Class<?> source) {
        this(source.getName());
    }

    /** Captures what the logger named {@code name} logs instead, for a class this package cannot see. */
    public WorkerLog(String name) {
        logger = (Logger) LoggerFactory.getLogger(name);
        appender.start();
        logger.addAppender(appender);
    }

    /** Returns whether a message containing {@code text} was logged. */
    public boolean contains(String text) {
        synchronized (appender.list) {
            return appender.list.stream().anyMatch(event -> event.getFormattedMessage().contains(text));
        }
    }

    /** Returns how many messages containing {@code text} were logged. */
    public long count(String text) {
        synchronized (appender.list) {
            return appender.list.stream().filter(event -> event.getFormattedMessage().contains(text)).count();
        }
    }

    /** Returns every message logged so far, formatted, in order. */
    public List<String> messages() {
        synchronized (appender.list) {
            return appender.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
        }
    }

    /** Returns every event logged so far, in order, with its level. */
    public List<ILoggingEvent> events() {
        synchronized (appender.list) {
            return List.copyOf(appender.list);
        }
    }

    @Override
    public void close() {
        logger.detachAppender(appender);
        appender.stop();
    }
}
