package io.localqueue.spring.autoconfigure;

import io.localqueue.LocalQueueDatabase;
import io.localqueue.spring.LocalQueueProperties;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Objects;
import java.util.Properties;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * Checks the SQLite library under every {@link LocalQueueDatabase} bean as it is created, the application's own
 * included: one older than {@value #MINIMUM_VERSION} fails the start with Boot's failure report, which says how to
 * lift the driver, unless {@value #ALLOW_PROPERTY} accepts the risk, and then each start logs a warning.
 */
final class SqliteVersionCheck implements BeanPostProcessor {

    /** The first SQLite release with the fix of the WAL-reset bug. */
    static final String MINIMUM_VERSION = "3.51.3";

    static final String ALLOW_PROPERTY = "localqueue.sqlite.allow-unsafe-version";

    private static final Logger log = LoggerFactory.getLogger(SqliteVersionCheck.class);
    private static final int[] MINIMUM = Objects.requireNonNull(parse(MINIMUM_VERSION));
    private static final String BUILD_FACTS = "localqueue-spring.properties";

    private final ObjectProvider<LocalQueueProperties> properties;
    private final Function<LocalQueueDatabase, String> versionOf;

    /**
     * Creates the check.
     *
     * @param properties where {@value #ALLOW_PROPERTY} is read, once a database needs it
     * @param versionOf reads the SQLite version a database runs on
     */
    SqliteVersionCheck(ObjectProvider<LocalQueueProperties> properties, Function<LocalQueueDatabase, String> versionOf) {
        this.properties = properties;
        this.versionOf = versionOf;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (bean instanceof LocalQueueDatabase database && database.isFile()) {
            check(database);
        }
        return bean;
    }

    private void check(LocalQueueDatabase database) {
        String version = versionOf.apply(database);
        int[] parsed = parse(version);
        if (parsed == null) {
            log.warn("Cannot tell whether SQLite '{}' of {} is at least {}", version, database.file(),
                    MINIMUM_VERSION);
            return;
        }
        if (compare(parsed, MINIMUM) >= 0) {
            return;
        }
        UnsafeSqliteVersionException unsafe = new UnsafeSqliteVersionException(version, database.file(),
                testedDriverVersion());
        if (properties.getObject().getSqlite().isAllowUnsafeVersion()) {
            log.warn("{} Starting anyway, as {}=true. {}", unsafe.description(), ALLOW_PROPERTY, unsafe.fix());
            return;
        }
        database.close();
        throw unsafe;
    }

    /** Returns the numbers of a version such as "3.50.3", or null when it is not made of numbers. */
    private static int @Nullable [] parse(String version) {
        String[] parts = version.trim().split("\\.");
        int[] numbers = new int[parts.length];
        try {
            for (int i = 0; i < parts.length; i++) {
                numbers[i] = Integer.parseInt(parts[i]);
            }
        } catch (NumberFormatException notNumeric) {
            return null;
        }
        return numbers;
    }

    private static int compare(int[] left, int[] right) {
        for (int i = 0; i < Math.max(left.length, right.length); i++) {
            int difference = Integer.compare(i < left.length ? left[i] : 0, i < right.length ? right[i] : 0);
            if (difference != 0) {
                return difference;
            }
        }
        return 0;
    }

    /** The sqlite-jdbc version this release was built and tested with, which the build writes down. */
    static String testedDriverVersion() {
        Properties facts = new Properties();
        try (InputStream in = SqliteVersionCheck.class.getResourceAsStream(BUILD_FACTS)) {
            if (in == null) {
                throw new IllegalStateException(BUILD_FACTS + " is missing from the localqueue jar");
            }
            facts.load(in);
        } catch (IOException unreadable) {
            throw new UncheckedIOException(unreadable);
        }
        return facts.getProperty("sqlite-jdbc.version");
    }
}
