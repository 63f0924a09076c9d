package io.localqueue.spring;

import io.localqueue.DeliveryPolicy;
import io.localqueue.DurabilityMode;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.SimpleQueue;
import io.localqueue.Worker;
import io.localqueue.bus.EventBus;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration of localqueue under {@code localqueue.*}: where the database lives, how commits reach the disk,
 * delivery defaults and per-queue overrides, and how {@code @QueueListener} methods are run. Plain values: the
 * auto-configuration maps them onto the runtime objects, which never read this class.
 *
 * @since 0.1.0
 */
@ConfigurationProperties(prefix = "localqueue", ignoreUnknownFields = false)
public class LocalQueueProperties {

    /**
     * Where the queues are kept: SQLITE, a file in localqueue.path, or POSTGRESQL, a schema of a PostgreSQL database
     * (localqueue.postgresql.*, or a DataSource bean marked @LocalQueueDataSource).
     */
    private Store store = Store.SQLITE;

    /**
     * Directory holding the queue database file (localqueue.db); created when missing. Used when localqueue.store
     * is SQLITE.
     */
    private Path path = Path.of(LocalQueueDatabase.DEFAULT_DIRECTORY);

    /**
     * The PostgreSQL database, when localqueue.store is POSTGRESQL.
     */
    private final Postgresql postgresql = new Postgresql();

    /**
     * How commits reach the disk: RELAXED (synchronous=NORMAL, may lose the last commits on an OS crash) or
     * DURABLE (synchronous=FULL).
     */
    private DurabilityMode durability = DurabilityMode.RELAXED;

    /**
     * Lease and retry budget of every queue, unless a queue overrides them.
     */
    private final Delivery delivery = new Delivery();

    /**
     * How producers (LocalQueueTemplate) wait for room in a full queue, unless a queue overrides it.
     */
    private final Producer producer = new Producer();

    /**
     * Per-queue settings, keyed by queue name.
     */
    private final Map<String, Queue> queues = new LinkedHashMap<>();

    /**
     * Overrides of @Recurring methods' schedules, keyed by recurring job id.
     */
    private final Map<String, RecurringOverride> recurring = new LinkedHashMap<>();

    /**
     * The dashboard's properties, which the {@code localqueue-dashboard} module binds and checks; held here only so
     * that this prefix's check of unknown properties lets them through.
     */
    private final Map<String, Object> dashboard = new LinkedHashMap<>();

    /**
     * Defaults for @QueueListener methods.
     */
    private final Listener listener = new Listener();

    /**
     * The producer template, LocalQueueTemplate.
     */
    private final Template template = new Template();

    /**
     * The localqueue health indicator.
     */
    private final Health health = new Health();

    /**
     * What the health indicator, the gauges and the actuator endpoint report.
     */
    private final Actuator actuator = new Actuator();

    /**
     * The SQLite library localqueue runs on.
     */
    private final Sqlite sqlite = new Sqlite();

    /**
     * How Spring MVC answers a request that met a full or closing queue.
     */
    private final Web web = new Web();

    /**
     * How payloads are written as JSON.
     */
    private final Json json = new Json();

    /**
     * The event bus on the same database.
     */
    private final Bus bus = new Bus();

    /**
     * How long finished jobs are kept before the background retention deletes them, for queues without their own.
     */
    private final Retention retention = new Retention();

    public Store getStore() {
        return store;
    }

    public void setStore(Store store) {
        this.store = store;
    }

    public Postgresql getPostgresql() {
        return postgresql;
    }

    public Path getPath() {
        return path;
    }

    public void setPath(Path path) {
        this.path = path;
    }

    public DurabilityMode getDurability() {
        return durability;
    }

    public void setDurability(DurabilityMode durability) {
        this.durability = durability;
    }

    public Delivery getDelivery() {
        return delivery;
    }

    public Producer getProducer() {
        return producer;
    }

    public Map<String, Queue> getQueues() {
        return queues;
    }

    public Map<String, RecurringOverride> getRecurring() {
        return recurring;
    }

    /**
     * Returns the dashboard's properties as this prefix saw them; the dashboard module binds and checks its own.
     *
     * @return the properties under {@code localqueue.dashboard}, by name
     * @since 0.1.0
     */
    public Map<String, Object> getDashboard() {
        return dashboard;
    }

    public Listener getListener() {
        return listener;
    }

    public Template getTemplate() {
        return template;
    }

    public Health getHealth() {
        return health;
    }

    public Actuator getActuator() {
        return actuator;
    }

    public Sqlite getSqlite() {
        return sqlite;
    }

    public Retention getRetention() {
        return retention;
    }

    public Bus getBus() {
        return bus;
    }

    public Json getJson() {
        return json;
    }

    public Web getWeb() {
        return web;
    }

    /**
     * Lease and retry budget.
     *
     * @since 0.1.0
     */
    public static class Delivery {

        /**
         * How long a claimed job stays leased before another worker may take it.
         */
        private Duration lease = DeliveryPolicy.DEFAULT_LEASE;

        /**
         * How many deliveries may follow the first before a failing job becomes a dead letter.
         */
        private int maxRetries = DeliveryPolicy.DEFAULT_MAX_RETRIES;

        /**
         * How long listeners wait between a failed delivery and the next.
         */
        private final Backoff backoff = new Backoff();

        public Duration getLease() {
            return lease;
        }

        public Backoff getBackoff() {
            return backoff;
        }

        public void setLease(Duration lease) {
            this.lease = lease;
        }

        public int getMaxRetries() {
            return maxRetries;
        }

        public void setMaxRetries(int maxRetries) {
            this.maxRetries = maxRetries;
        }
    }

    /**
     * How producers wait for room.
     *
     * @since 0.1.0
     */
    public static class Producer {

        /**
         * How long LocalQueueTemplate waits for room in a queue at its max-pending-jobs before throwing
         * QueueFullException; 0 makes one attempt.
         */
        private Duration maxWait = LocalQueueTemplate.DEFAULT_MAX_WAIT;

        /**
         * Whether LocalQueueTemplate follows the Spring-managed transaction a call runs in: enqueue writes the jobs
         * once it commits and drops them if it rolls back, and put, which returns ids, throws IllegalStateException
         * there. False writes at once everywhere, whatever becomes of the transaction.
         */
        private boolean transactionAware = true;

        public Duration getMaxWait() {
            return maxWait;
        }

        public void setMaxWait(Duration maxWait) {
            this.maxWait = maxWait;
        }

        public boolean isTransactionAware() {
            return transactionAware;
        }

        public void setTransactionAware(boolean transactionAware) {
            this.transactionAware = transactionAware;
        }
    }

    /**
     * Settings of one queue.
     *
     * @since 0.1.0
     */
    public static class Queue {

        /**
         * Most ready plus processing jobs the queue may hold; producers wait up to their max-wait while it is full.
         * Unlimited when unset.
         */
        private @Nullable Long maxPendingJobs;

        /**
         * Lease and retry budget of this queue; unset values fall back to localqueue.delivery.
         */
        private final DeliveryOverride delivery = new DeliveryOverride();

        /**
         * How producers wait for room in this queue; unset values fall back to localqueue.producer.
         */
        private final ProducerOverride producer = new ProducerOverride();

        /**
         * How long this queue keeps its finished jobs; unset values fall back to localqueue.retention.
         */
        private final RetentionOverride retention = new RetentionOverride();

        /**
         * Most jobs of this queue leased at once, across every process and host on the store; 0 lifts a limit an
         * earlier start stored. Unset leaves the stored limit as it is.
         */
        private @Nullable Integer maxConcurrent;

        /**
         * Most jobs of one concurrency key leased at once, across every process and host; 0 lifts a limit an earlier
         * start stored. Unset leaves the stored limit as it is.
         */
        private @Nullable Integer maxConcurrentPerKey;

        /**
         * Concurrency key of the jobs LocalQueueTemplate writes without one: a SpEL expression read against the
         * payload, such as customerId or ['customer'] for a map; a null result leaves the job without a key.
         */
        private @Nullable String concurrencyKey;

        /**
         * Most claims of this queue in any window of the period, across every process and host.
         */
        private final RateLimit rateLimit = new RateLimit();

        public RetentionOverride getRetention() {
            return retention;
        }

        public @Nullable Integer getMaxConcurrent() {
            return maxConcurrent;
        }

        public void setMaxConcurrent(@Nullable Integer maxConcurrent) {
            this.maxConcurrent = maxConcurrent;
        }

        public @Nullable Integer getMaxConcurrentPerKey() {
            return maxConcurrentPerKey;
        }

        public void setMaxConcurrentPerKey(@Nullable Integer maxConcurrentPerKey) {
            this.maxConcurrentPerKey = maxConcurrentPerKey;
        }

        public @Nullable String getConcurrencyKey() {
            return concurrencyKey;
        }

        public void setConcurrencyKey(@Nullable String concurrencyKey) {
            this.concurrencyKey = concurrencyKey;
        }

        public RateLimit getRateLimit() {
            return rateLimit;
        }

        public @Nullable Long getMaxPendingJobs() {
            return maxPendingJobs;
        }

        public void setMaxPendingJobs(@Nullable Long maxPendingJobs) {
            this.maxPendingJobs = maxPendingJobs;
        }

        public DeliveryOverride getDelivery() {
            return delivery;
        }

        public ProducerOverride getProducer() {
            return producer;
        }
    }

    /**
     * How long finished jobs are kept: acknowledged ones 7 days, dead letters until purged, unless set.
     *
     * @since 0.1.0
     */
    public static class Retention {

        /**
         * How long after its acknowledgement a job is kept before the background retention deletes it.
         */
        private Duration acked = SimpleQueue.DEFAULT_ACKED_RETENTION;

        /**
         * How long after it failed a dead letter is kept before the background retention deletes it; unset keeps
         * dead letters until they are purged or retried.
         */
        private @Nullable Duration failed;

        public Duration getAcked() {
            return acked;
        }

        public void setAcked(Duration acked) {
            this.acked = acked;
        }

        public @Nullable Duration getFailed() {
            return failed;
        }

        public void setFailed(@Nullable Duration failed) {
            this.failed = failed;
        }
    }

    /**
     * A queue's rate limit: both values set it, 0 permits lift a limit an earlier start stored, neither leaves it.
     *
     * @since 0.1.0
     */
    public static class RateLimit {

        /**
         * How many claims (first deliveries and redeliveries) the period holds; 0 lifts the stored limit.
         */
        private @Nullable Integer permits;

        /**
         * The window the permits are counted over, such as 1m; any window of this length holds at most the permits.
         */
        private @Nullable Duration period;

        public @Nullable Integer getPermits() {
            return permits;
        }

        public void setPermits(@Nullable Integer permits) {
            this.permits = permits;
        }

        public @Nullable Duration getPeriod() {
            return period;
        }

        public void setPeriod(@Nullable Duration period) {
            this.period = period;
        }
    }

    /**
     * What a configuration sets for one @Recurring method's schedule, over its annotation.
     *
     * @since 0.1.0
     */
    public static class RecurringOverride {

        /**
         * The cron expression, six fields with seconds or a macro such as @hourly, over the annotation's.
         */
        private @Nullable String cron;

        /**
         * The time zone the cron is read in, such as Europe/Paris, over the annotation's.
         */
        private @Nullable String zone;

        /**
         * Whether the schedule fires: false disables it for every process, true enables it; unset leaves the stored
         * state (enabled when new), which the Actuator may have changed.
         */
        private @Nullable Boolean enabled;

        public @Nullable String getCron() {
            return cron;
        }

        public void setCron(@Nullable String cron) {
            this.cron = cron;
        }

        public @Nullable String getZone() {
            return zone;
        }

        public void setZone(@Nullable String zone) {
            this.zone = zone;
        }

        public @Nullable Boolean getEnabled() {
            return enabled;
        }

        public void setEnabled(@Nullable Boolean enabled) {
            this.enabled = enabled;
        }
    }

    /**
     * A queue's own retention of finished jobs.
     *
     * @since 0.1.0
     */
    public static class RetentionOverride {

        /**
         * How long after its acknowledgement a job of this queue is kept; unset keeps localqueue.retention.acked.
         */
        private @Nullable Duration acked;

        /**
         * How long after it failed a dead letter of this queue is kept; unset keeps localqueue.retention.failed.
         */
        private @Nullable Duration failed;

        public @Nullable Duration getAcked() {
            return acked;
        }

        public void setAcked(@Nullable Duration acked) {
            this.acked = acked;
        }

        public @Nullable Duration getFailed() {
            return failed;
        }

        public void setFailed(@Nullable Duration failed) {
            this.failed = failed;
        }
    }

    /**
     * A queue's own wait for room.
     *
     * @since 0.1.0
     */
    public static class ProducerOverride {

        /**
         * How long LocalQueueTemplate waits for room in this queue before throwing QueueFullException.
         */
        private @Nullable Duration maxWait;

        public @Nullable Duration getMaxWait() {
            return maxWait;
        }

        public void setMaxWait(@Nullable Duration maxWait) {
            this.maxWait = maxWait;
        }
    }

    /**
     * A queue's own lease and retry budget.
     *
     * @since 0.1.0
     */
    public static class DeliveryOverride {

        /**
         * How long a claimed job (or event delivery) stays leased; unset keeps localqueue.delivery.lease.
         */
        private @Nullable Duration lease;

        /**
         * How many deliveries of a job (or event) may follow the first; unset keeps localqueue.delivery.max-retries.
         */
        private @Nullable Integer maxRetries;

        /**
         * The waits between deliveries; unset values keep localqueue.delivery.backoff's.
         */
        private final BackoffOverride backoff = new BackoffOverride();

        public @Nullable Duration getLease() {
            return lease;
        }

        public BackoffOverride getBackoff() {
            return backoff;
        }

        public void setLease(@Nullable Duration lease) {
            this.lease = lease;
        }

        public @Nullable Integer getMaxRetries() {
            return maxRetries;
        }

        public void setMaxRetries(@Nullable Integer maxRetries) {
            this.maxRetries = maxRetries;
        }
    }

    /**
     * The waits between a failed delivery and the next: exponential with full jitter by default.
     *
     * @since 0.1.0
     */
    public static class Backoff {

        /**
         * How long a failed job waits before its second delivery; 0s retries at once.
         */
        private Duration initialDelay = RetryBackoff.DEFAULT.initialDelay();

        /**
         * How much each further wait grows; 1 keeps every wait at initial-delay.
         */
        private double multiplier = RetryBackoff.DEFAULT.multiplier();

        /**
         * The longest wait between two deliveries.
         */
        private Duration maxDelay = RetryBackoff.DEFAULT.maxDelay();

        /**
         * Whether each wait is drawn uniformly between zero and its exponential value, so that jobs that failed
         * together do not come back together.
         */
        private boolean jitter = RetryBackoff.DEFAULT.jitter();

        public Duration getInitialDelay() {
            return initialDelay;
        }

        public void setInitialDelay(Duration initialDelay) {
            this.initialDelay = initialDelay;
        }

        public double getMultiplier() {
            return multiplier;
        }

        public void setMultiplier(double multiplier) {
            this.multiplier = multiplier;
        }

        public Duration getMaxDelay() {
            return maxDelay;
        }

        public void setMaxDelay(Duration maxDelay) {
            this.maxDelay = maxDelay;
        }

        public boolean isJitter() {
            return jitter;
        }

        public void setJitter(boolean jitter) {
            this.jitter = jitter;
        }
    }

    /**
     * A queue's (or a subscription's) own waits between deliveries; unset values keep the defaults.
     *
     * @since 0.1.0
     */
    public static class BackoffOverride {

        /**
         * How long a failed job or delivery waits before its second delivery.
         */
        private @Nullable Duration initialDelay;

        /**
         * How much each further wait grows; greater than 1.
         */
        private @Nullable Double multiplier;

        /**
         * The longest wait between two deliveries.
         */
        private @Nullable Duration maxDelay;

        /**
         * Whether the waits are jittered: each drawn uniformly between zero and its value.
         */
        private @Nullable Boolean jitter;

        public @Nullable Duration getInitialDelay() {
            return initialDelay;
        }

        public void setInitialDelay(@Nullable Duration initialDelay) {
            this.initialDelay = initialDelay;
        }

        public @Nullable Double getMultiplier() {
            return multiplier;
        }

        public void setMultiplier(@Nullable Double multiplier) {
            this.multiplier = multiplier;
        }

        public @Nullable Duration getMaxDelay() {
            return maxDelay;
        }

        public void setMaxDelay(@Nullable Duration maxDelay) {
            this.maxDelay = maxDelay;
        }

        public @Nullable Boolean getJitter() {
            return jitter;
        }

        public void setJitter(@Nullable Boolean jitter) {
            this.jitter = jitter;
        }
    }

    /**
     * Defaults for @QueueListener methods; each listener may override concurrency and auto-startup.
     *
     * @since 0.1.0
     */
    public static class Listener {

        /**
         * How many invocations of one listener method run at once.
         */
        private int concurrency = Worker.DEFAULT_CONCURRENCY;

        /**
         * How many jobs one listener may claim ahead of its running invocations (beyond one for each idle
         * invocation), 0 to 256: they wait in this process, leased to it, so other processes cannot take them. Batch
         * listeners claim only their batches.
         */
        private int prefetch = Worker.DEFAULT_PREFETCH;

        /**
         * How long an idle listener waits for a job before looking again; new jobs wake it earlier.
         */
        private Duration pollInterval = Worker.DEFAULT_POLL_INTERVAL;

        /**
         * How often running jobs' leases are renewed; must be shorter than the lease. Unset means a third of each
         * queue's lease.
         */
        private @Nullable Duration heartbeatInterval;

        /**
         * Whether listeners start with the application context.
         */
        private boolean autoStartup = true;

        /**
         * How long shutdown waits for running listener invocations to finish; invocations still running afterwards
         * are interrupted, and their jobs handed back without spending a delivery. Unset means
         * spring.lifecycle.timeout-per-shutdown-phase less 5s (25s with Boot's defaults); never longer than that.
         */
        private @Nullable Duration shutdownTimeout;

        /**
         * Whether each delivery a listener method handles is observed with Micrometer Observation (observation
         * localqueue.listener); with a tracing bridge, its span continues the trace of the code that put the job.
         */
        private boolean observationEnabled;

        /**
         * How listeners that do not say settle their jobs: AUTO (returning acknowledges, throwing retries) or
         * MANUAL (the method settles its job through an Acknowledgement parameter).
         */
        private AckMode ackMode = AckMode.AUTO;

        /**
         * The most jobs in one batch of batch listeners (batch = true) that do not say; 1 to 1000.
         */
        private int batchSize = Worker.DEFAULT_BATCH_SIZE;

        /**
         * How long a batch that is not full waits for more jobs, for batch listeners that do not say; under half
         * the queue's lease. Zero means a batch is what was due at once.
         */
        private Duration batchWait = Duration.ZERO;

        public AckMode getAckMode() {
            return ackMode;
        }

        public void setAckMode(AckMode ackMode) {
            this.ackMode = ackMode;
        }

        public int getBatchSize() {
            return batchSize;
        }

        public void setBatchSize(int batchSize) {
            this.batchSize = batchSize;
        }

        public Duration getBatchWait() {
            return batchWait;
        }

        public void setBatchWait(Duration batchWait) {
            this.batchWait = batchWait;
        }

        public int getConcurrency() {
            return concurrency;
        }

        public void setConcurrency(int concurrency) {
            this.concurrency = concurrency;
        }

        public int getPrefetch() {
            return prefetch;
        }

        public void setPrefetch(int prefetch) {
            this.prefetch = prefetch;
        }

        public Duration getPollInterval() {
            return pollInterval;
        }

        public void setPollInterval(Duration pollInterval) {
            this.pollInterval = pollInterval;
        }

        public @Nullable Duration getHeartbeatInterval() {
            return heartbeatInterval;
        }

        public void setHeartbeatInterval(@Nullable Duration heartbeatInterval) {
            this.heartbeatInterval = heartbeatInterval;
        }

        public boolean isAutoStartup() {
            return autoStartup;
        }

        public void setAutoStartup(boolean autoStartup) {
            this.autoStartup = autoStartup;
        }

        public @Nullable Duration getShutdownTimeout() {
            return shutdownTimeout;
        }

        public void setShutdownTimeout(@Nullable Duration shutdownTimeout) {
            this.shutdownTimeout = shutdownTimeout;
        }

        public boolean isObservationEnabled() {
            return observationEnabled;
        }

        public void setObservationEnabled(boolean observationEnabled) {
            this.observationEnabled = observationEnabled;
        }
    }

    /**
     * The producer template.
     *
     * @since 0.1.0
     */
    public static class Template {

        /**
         * Whether each call of LocalQueueTemplate that writes jobs or defers them to a transaction's commit (put,
         * putMany, putAll, enqueue and the joining puts) is observed with Micrometer Observation (observation
         * localqueue.template); with a tracing bridge, the caller's trace context is stored with each job.
         */
        private boolean observationEnabled;

        public boolean isObservationEnabled() {
            return observationEnabled;
        }

        public void setObservationEnabled(boolean observationEnabled) {
            this.observationEnabled = observationEnabled;
        }
    }

    /**
     * How payloads are written as JSON, unless the application declares its own {@code PayloadSerializers}.
     *
     * @since 0.1.0
     */
    public static class Json {

        /**
         * Whether payloads go through the application's JsonMapper bean (so spring.jackson.* applies) when there is
         * one; false uses localqueue's own mapper.
         */
        private boolean applicationMapper = true;

        /**
         * Whether the mapper writes exactly the bytes the Python library's json.dumps writes (", " and ": "
         * separators, non-ASCII escaped), so a file shared with Python holds the same bytes whichever side put a
         * job; false writes the application mapper's own spelling, which Python still reads.
         */
        private boolean pythonSpelling = true;

        public boolean isApplicationMapper() {
            return applicationMapper;
        }

        public void setApplicationMapper(boolean applicationMapper) {
            this.applicationMapper = applicationMapper;
        }

        public boolean isPythonSpelling() {
            return pythonSpelling;
        }

        public void setPythonSpelling(boolean pythonSpelling) {
            this.pythonSpelling = pythonSpelling;
        }
    }

    /**
     * The localqueue health indicator.
     *
     * @since 0.1.0
     */
    public static class Health {

        /**
         * How long the result of the quick integrity check is reused between health checks; the check reads the
         * whole file.
         */
        private Duration integrityCheckInterval = Duration.ofMinutes(5);

        public Duration getIntegrityCheckInterval() {
            return integrityCheckInterval;
        }

        public void setIntegrityCheckInterval(Duration integrityCheckInterval) {
            this.integrityCheckInterval = integrityCheckInterval;
        }
    }

    /**
     * What the health indicator, the gauges and the actuator endpoint report.
     *
     * @since 0.1.0
     */
    public static class Actuator {

        /**
         * How old the job counts and ages that the localqueue health indicator, the localqueue.jobs gauges and the
         * localqueue actuator endpoint report may be: the first read that finds a queue's figures this old still
         * gets them, at once, and starts a recount in the background, so that no request waits for a count of the
         * queue's jobs. At least 1ms.
         */
        private Duration maxAge = ObservedQueues.DEFAULT_MAX_AGE;

        public Duration getMaxAge() {
            return maxAge;
        }

        public void setMaxAge(Duration maxAge) {
            this.maxAge = maxAge;
        }
    }

    /**
     * The SQLite library: an application refuses to start on one older than 3.51.3 unless told to accept the risk.
     *
     * @since 0.1.0
     */
    public static class Sqlite {

        /**
         * Whether to start on a SQLite library older than 3.51.3, which lacks SQLite's fix of a WAL-reset bug that
         * can corrupt a database several connections write at once; each start then logs a warning.
         */
        private boolean allowUnsafeVersion;

        public boolean isAllowUnsafeVersion() {
            return allowUnsafeVersion;
        }

        public void setAllowUnsafeVersion(boolean allowUnsafeVersion) {
            this.allowUnsafeVersion = allowUnsafeVersion;
        }
    }

    /**
     * Where the queues are kept.
     *
     * @since 0.1.0
     */
    public enum Store {

        /** A SQLite file in {@code localqueue.path}. */
        SQLITE,

        /** A schema of a PostgreSQL database, shared by every host that names it. */
        POSTGRESQL
    }

    /**
     * The PostgreSQL database of {@code localqueue.store=postgresql}, reached by URL on a pool localqueue opens, when
     * no DataSource bean is marked {@code @LocalQueueDataSource}.
     *
     * @since 0.1.0
     */
    public static class Postgresql {

        /**
         * JDBC URL of the database, such as jdbc:postgresql://db.internal:5432/app; needed unless a DataSource bean
         * is marked @LocalQueueDataSource.
         */
        private @Nullable String url;

        /**
         * User to connect as; default the URL's user parameter.
         */
        private @Nullable String username;

        /**
         * Password of the user; default the URL's password parameter, or none.
         */
        private @Nullable String password;

        /**
         * Schema that holds the queue tables, created when missing; a lower-case identifier. It applies to a marked
         * DataSource too.
         */
        private String schema = LocalQueueDatabase.DEFAULT_SCHEMA;

        /**
         * Most connections the pool localqueue opens for the URL holds, at least 3: the wake-ups' listener holds one,
         * and each claim, settlement or read borrows one while it runs.
         */
        private int poolSize = 10;

        public @Nullable String getUrl() {
            return url;
        }

        public void setUrl(@Nullable String url) {
            this.url = url;
        }

        public @Nullable String getUsername() {
            return username;
        }

        public void setUsername(@Nullable String username) {
            this.username = username;
        }

        public @Nullable String getPassword() {
            return password;
        }

        public void setPassword(@Nullable String password) {
            this.password = password;
        }

        public String getSchema() {
            return schema;
        }

        public void setSchema(String schema) {
            this.schema = schema;
        }

        public int getPoolSize() {
            return poolSize;
        }

        public void setPoolSize(int poolSize) {
            this.poolSize = poolSize;
        }
    }

    /**
     * The answer of a Spring MVC request that met a full or closing queue: 503 Service Unavailable.
     *
     * @since 0.1.0
     */
    public static class Web {

        /**
         * How long the Retry-After header of a 503 asks clients to wait, rounded up to whole seconds.
         */
        private Duration retryAfter = Duration.ofSeconds(5);

        public Duration getRetryAfter() {
            return retryAfter;
        }

        public void setRetryAfter(Duration retryAfter) {
            this.retryAfter = retryAfter;
        }
    }

    /**
     * The event bus: its name, routes and subscriptions, on the application's queue database, and its observation.
     *
     * @since 0.1.0
     */
    public static class Bus {

        /**
         * Whether to create the EventBus bean.
         */
        private boolean enabled = true;

        /**
         * The bus's name, shared by every process that uses the bus; part of each subscription's queue name.
         */
        private String name = EventBus.DEFAULT_NAME;

        /**
         * Whether dispatching an event that no subscription routes fails (NoSubscribersException) rather than
         * storing nothing.
         */
        private boolean requireSubscribers = true;

        /**
         * Whether the bus starts consuming its subscriptions with handlers when the application starts.
         */
        private boolean autoStartup = true;

        /**
         * How long the bus waits for running handlers at shutdown before interrupting them (their deliveries are
         * handed back uncounted). Unset means spring.lifecycle.timeout-per-shutdown-phase less 5s (25s with Boot's
         * defaults); never longer than that.
         */
        private @Nullable Duration shutdownTimeout;

        /**
         * How long an execution's hold on its source lasts without renewal; after a crash another process resumes
         * the execution once it ran out.
         */
        private Duration executionLease = EventBus.DEFAULT_EXECUTION_LEASE;

        /**
         * The bus's delivery policy, over localqueue.delivery's: its lease, retry budget and backoff, which every
         * subscription without a retry policy or queue override of its own takes.
         */
        private final DeliveryOverride delivery = new DeliveryOverride();

        /**
         * Static routes: subscription name to the event type names (or "*") it receives; handlers add their own.
         */
        private final Map<String, List<String>> topology = new LinkedHashMap<>();

        /**
         * Per-subscription settings of this process, by subscription name.
         */
        private final Map<String, SubscriptionSettings> subscriptions = new LinkedHashMap<>();

        /**
         * Whether each dispatch (dispatch, dispatchAll, each ingestion batch) and each delivery an @EventHandler
         * method handles are observed with Micrometer Observation (observations localqueue.bus.dispatch and
         * localqueue.bus.handler); with a tracing bridge, the dispatcher's trace context is stored with the
         * deliveries and the handler's span continues it.
         */
        private boolean observationEnabled;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public String getName() {
            return name;
        }

        public void setName(String name) {
            this.name = name;
        }

        public boolean isRequireSubscribers() {
            return requireSubscribers;
        }

        public void setRequireSubscribers(boolean requireSubscribers) {
            this.requireSubscribers = requireSubscribers;
        }

        public boolean isAutoStartup() {
            return autoStartup;
        }

        public void setAutoStartup(boolean autoStartup) {
            this.autoStartup = autoStartup;
        }

        public @Nullable Duration getShutdownTimeout() {
            return shutdownTimeout;
        }

        public void setShutdownTimeout(@Nullable Duration shutdownTimeout) {
            this.shutdownTimeout = shutdownTimeout;
        }

        public Duration getExecutionLease() {
            return executionLease;
        }

        public void setExecutionLease(Duration executionLease) {
            this.executionLease = executionLease;
        }

        public DeliveryOverride getDelivery() {
            return delivery;
        }

        public Map<String, List<String>> getTopology() {
            return topology;
        }

        public Map<String, SubscriptionSettings> getSubscriptions() {
            return subscriptions;
        }

        public boolean isObservationEnabled() {
            return observationEnabled;
        }

        public void setObservationEnabled(boolean observationEnabled) {
            this.observationEnabled = observationEnabled;
        }
    }

    /**
     * One subscription's settings in this process.
     *
     * @since 0.1.0
     */
    public static class SubscriptionSettings {

        /**
         * Handlers of the subscription running at once in this process.
         */
        private @Nullable Integer concurrency;

        /**
         * Deliveries this process may claim ahead of the subscription's running handlers (beyond one for each idle
         * handler), 0 to 256; unset means the core's default, as for listeners.
         */
        private @Nullable Integer prefetch;

        /**
         * How long a handler may run before it is interrupted and its delivery retried (handler_timeout once the
         * budget is spent).
         */
        private @Nullable Duration handlerTimeout;

        /**
         * The subscription's retry policy; unset, it retries as its queue would (delivery budget and backoff).
         */
        private final RetrySettings retry = new RetrySettings();

        public RetrySettings getRetry() {
            return retry;
        }

        public @Nullable Integer getConcurrency() {
            return concurrency;
        }

        public void setConcurrency(@Nullable Integer concurrency) {
            this.concurrency = concurrency;
        }

        public @Nullable Integer getPrefetch() {
            return prefetch;
        }

        public void setPrefetch(@Nullable Integer prefetch) {
            this.prefetch = prefetch;
        }

        public @Nullable Duration getHandlerTimeout() {
            return handlerTimeout;
        }

        public void setHandlerTimeout(@Nullable Duration handlerTimeout) {
            this.handlerTimeout = handlerTimeout;
        }
    }

    /**
     * A subscription's retry policy: fixed or exponential (whose waits are the backoff's), with the deliveries it
     * allows in all.
     *
     * @since 0.1.0
     */
    public static class RetrySettings extends BackoffOverride {

        /**
         * The policy's kind: exponential (with full jitter by default) or fixed.
         */
        private @Nullable RetryKind type;

        /**
         * Deliveries in all, the first included; defaults to localqueue.delivery.max-retries + 1.
         */
        private @Nullable Integer maxAttempts;

        /**
         * The wait before each retry of a fixed policy.
         */
        private @Nullable Duration delay;

        public @Nullable RetryKind getType() {
            return type;
        }

        public void setType(@Nullable RetryKind type) {
            this.type = type;
        }

        public @Nullable Integer getMaxAttempts() {
            return maxAttempts;
        }

        public void setMaxAttempts(@Nullable Integer maxAttempts) {
            this.maxAttempts = maxAttempts;
        }

        public @Nullable Duration getDelay() {
            return delay;
        }

        public void setDelay(@Nullable Duration delay) {
            this.delay = delay;
        }

        /**
         * Tells whether any of the settings is given.
         *
         * @return true when the subscription has a policy of its own
         */
        public boolean isSet() {
            return type != null || maxAttempts != null || delay != null || getInitialDelay() != null
                    || getMultiplier() != null || getMaxDelay() != null || getJitter() != null;
        }
    }

    /**
     * The kinds of retry policy.
     *
     * @since 0.1.0
     */
    public enum RetryKind {
        /** The same wait before every retry. */
        FIXED,
        /** Waits that grow by a multiplier up to a cap, with full jitter by default. */
        EXPONENTIAL
    }
}
