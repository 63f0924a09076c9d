package io.localqueue.dashboard;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The dashboard's configuration, under {@code localqueue.dashboard}; a bad value fails the start naming its property.
 *
 * @since 0.1.0
 */
@ConfigurationProperties(prefix = DashboardProperties.PREFIX, ignoreUnknownFields = false)
public class DashboardProperties {

    /** The properties' prefix. */
    public static final String PREFIX = "localqueue.dashboard";

    /** Whether the application serves the dashboard; false removes every route of it. */
    private boolean enabled = true;

    /** Where the page is served: a path of the application's own, such as /localqueue. */
    private String path = "/localqueue";

    /** Whether actions are refused; the page then only reads. */
    private boolean readOnly = true;

    /** How often an open page refreshes what it shows, while its tab is visible. */
    private Duration refreshInterval = Duration.ofSeconds(2);

    /** How many jobs one page of a list shows. */
    private int pageSize = 50;

    /** The most jobs a count steps through: beyond it the page shows the cap followed by a plus sign. */
    private long countCap = 10_000;

    /** The most jobs one action on every matching job (retry or delete) changes. */
    private int actionLimit = 1_000;

    /** Key names, besides those that look secret, whose values the default redaction masks (case ignored). */
    private List<String> redactedKeys = new ArrayList<>();

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public String getPath() {
        return path;
    }

    public void setPath(String path) {
        this.path = path;
    }

    public boolean isReadOnly() {
        return readOnly;
    }

    public void setReadOnly(boolean readOnly) {
        this.readOnly = readOnly;
    }

    public Duration getRefreshInterval() {
        return refreshInterval;
    }

    public void setRefreshInterval(Duration refreshInterval) {
        this.refreshInterval = refreshInterval;
    }

    public int getPageSize() {
        return pageSize;
    }

    public void setPageSize(int pageSize) {
        this.pageSize = pageSize;
    }

    public long getCountCap() {
        return countCap;
    }

    public void setCountCap(long countCap) {
        this.countCap = countCap;
    }

    public int getActionLimit() {
        return actionLimit;
    }

    public void setActionLimit(int actionLimit) {
        this.actionLimit = actionLimit;
    }

    public List<String> getRedactedKeys() {
        return redactedKeys;
    }

    public void setRedactedKeys(List<String> redactedKeys) {
        this.redactedKeys = redactedKeys;
    }
}
