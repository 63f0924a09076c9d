package io.localqueue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.slf4j.LoggerFactory;

/**
 * Captures what {@link Worker} logs, so a test can wait for a heartbeat to have noticed a lost lease.
 */
final class WorkerLog implements AutoCloseable {

    private final Logger logger;
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

    WorkerLog() {
        this(Worker.class);
    }

    /** Captures what the logger of {@code source} logs instead. */
    WorkerLog(Class<?> source) {
        this(source.getName());
    }

    /** Captures what the logger named {@code name} logs instead, for a class this package cannot see. */
    WorkerLog(String name) {
        logger = (Logger) LoggerFactory.getLogger(name);
        appender.start();
        logger.addAppender(appender);
    }

    /** Returns whether a message containing {@code text} was logged. */
    boolean contains(String text) {
        synchronized (appender.list) {
            return appender.list.stream().anyMatch(event -> event.getFormattedMessage().contains(text));
        }
    }

    /** Returns how many messages containing {@code text} were logged. */
    long count(String text) {
        synchronized (appender.list) {
            return appender.list.stream().filter(event -> event.getFormattedMessage().contains(text)).count();
        }
    }

    @Override
    public void close() {
        logger.detachAppender(appender);
        appender.stop();
    }
}
