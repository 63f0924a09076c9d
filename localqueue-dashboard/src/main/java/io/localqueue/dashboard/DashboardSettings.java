package io.localqueue.dashboard;

import java.time.Duration;
import java.util.regex.Pattern;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * The dashboard's properties, checked: a bad value fails the start naming its property.
 *
 * @param path where the page is served
 * @param readOnly whether actions are refused
 * @param refresh how often an open page refreshes
 * @param pageSize jobs per page
 * @param countCap the most a count steps through
 * @param actionLimit the most jobs one action changes
 */
record DashboardSettings(String path, boolean readOnly, Duration refresh, int pageSize, long countCap,
                         int actionLimit) {

    /** The shortest refresh interval: a page asking more often would only read the same cached overview. */
    static final Duration SHORTEST_REFRESH = Duration.ofMillis(500);

    /** The most jobs one action may change, so that one request stays a bounded amount of work. */
    static final int MOST_JOBS_PER_ACTION = 100_000;

    /** Segments of letters, digits and {@code . _ ~ -}, none of dots alone ({@code /a/..} would leave the path). */
    private static final Pattern PATH = Pattern.compile("(/(?!\\.+(/|$))[A-Za-z0-9._~-]+)+");

    static DashboardSettings of(DashboardProperties properties) {
        String path = properties.getPath();
        if (path == null || !PATH.matcher(path).matches()) {
            throw invalid("path", path, "must be a path of one or more segments of letters, digits, '.', '_', '~' "
                    + "or '-' (not dots alone), starting with '/' and not ending with one, such as /localqueue");
        }
        Duration refresh = properties.getRefreshInterval();
        if (refresh == null || refresh.compareTo(SHORTEST_REFRESH) < 0) {
            throw invalid("refresh-interval", refresh, "must be at least " + SHORTEST_REFRESH.toMillis() + "ms");
        }
        if (properties.getPageSize() < 1 || properties.getPageSize() > io.localqueue.SimpleQueue.MAX_PAGE) {
            throw invalid("page-size", properties.getPageSize(), "must be between 1 and "
                    + io.localqueue.SimpleQueue.MAX_PAGE);
        }
        if (properties.getCountCap() < 1) {
            throw invalid("count-cap", properties.getCountCap(), "must be 1 or more");
        }
        if (properties.getActionLimit() < 1 || properties.getActionLimit() > MOST_JOBS_PER_ACTION) {
            throw invalid("action-limit", properties.getActionLimit(), "must be between 1 and "
                    + MOST_JOBS_PER_ACTION);
        }
        return new DashboardSettings(path, properties.isReadOnly(), refresh, properties.getPageSize(),
                properties.getCountCap(), properties.getActionLimit());
    }

    private static InvalidConfigurationPropertyValueException invalid(String name, Object value, String reason) {
        return new InvalidConfigurationPropertyValueException(DashboardProperties.PREFIX + "." + name, value, reason);
    }
}
