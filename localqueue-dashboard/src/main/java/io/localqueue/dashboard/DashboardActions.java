package io.localqueue.dashboard;

import io.localqueue.JobCursor;
import io.localqueue.JobNotFoundException;
import io.localqueue.JobState;
import io.localqueue.QueueFullException;
import io.localqueue.SimpleQueue;
import io.localqueue.StoredJob;
import io.localqueue.bus.EventBus;
import io.localqueue.spring.actuate.LocalQueueEndpoint;
import io.localqueue.spring.actuate.QueueActions;
import io.localqueue.spring.actuate.RecurringActions;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;

/**
 * Runs what an operator asks of the page: an action on a whole queue, subscription or recurring job through the
 * Actuator endpoint's actions, or on chosen jobs (or every matching one, up to the action limit) of a queue. Every
 * action, refused ones included, is logged at INFO with who asked, and published as a {@link DashboardActionEvent}.
 */
final class DashboardActions {

    /** The actions on jobs a page names, each for the state it acts on. */
    static final String RETRY = "retry";
    static final String DELETE = "delete";
    static final String CANCEL = "cancel";
    static final String RUN_NOW = "run-now";
    static final String RESCHEDULE = "reschedule";

    private static final Set<String> QUEUE_ACTIONS = Set.of(QueueActions.PAUSE, QueueActions.RESUME,
            QueueActions.PAUSE_HERE, QueueActions.RESUME_HERE);
    private static final Set<String> SUBSCRIPTION_ACTIONS = Set.of(QueueActions.PAUSE, QueueActions.RESUME,
            QueueActions.PAUSE_HERE, QueueActions.RESUME_HERE, QueueActions.RETRY_DEAD_LETTERS);
    private static final Set<String> JOB_ACTIONS = Set.of(RETRY, DELETE, CANCEL, RUN_NOW, RESCHEDULE);
    private static final Set<String> RECURRING_ACTIONS = Set.of(RecurringActions.ENABLE, RecurringActions.DISABLE,
            RecurringActions.RUN_NOW);

    /** The most job ids one log line lists; the event carries all of them. */
    static final int LOGGED_IDS = 20;

    private static final Logger log = LoggerFactory.getLogger(DashboardActions.class);

    private final LocalQueueEndpoint endpoint;
    private final @Nullable EventBus bus;
    private final JobReader jobs;
    private final Overview overview;
    private final ApplicationEventPublisher events;
    private final Clock clock;
    private final boolean readOnly;
    private final int actionLimit;

    DashboardActions(LocalQueueEndpoint endpoint, @Nullable EventBus bus, JobReader jobs, Overview overview,
                     ApplicationEventPublisher events, Clock clock, boolean readOnly, int actionLimit) {
        this.endpoint = endpoint;
        this.bus = bus;
        this.jobs = jobs;
        this.overview = overview;
        this.events = events;
        this.clock = clock;
        this.readOnly = readOnly;
        this.actionLimit = actionLimit;
    }

    /** Runs a request, or refuses it when the page is read-only or the request names nothing it can act on. */
    Result run(ActionRequest request, String user, String remoteAddress) {
        Result result;
        if (readOnly) {
            result = Result.refused(Result.Status.FORBIDDEN, "the dashboard is read-only: set "
                    + DashboardProperties.PREFIX + ".read-only=false to allow actions");
        } else {
            try {
                result = dispatch(request);
                recount(request);
            } catch (IllegalArgumentException bad) {
                result = Result.refused(Result.Status.BAD_REQUEST, bad.getMessage());
            } catch (RuntimeException failed) {
                log.warn("Dashboard action {} on {} failed", request.action(), request.target(), failed);
                result = Result.refused(Result.Status.FAILED, "failed: " + failed.getMessage());
                overview.invalidate();
            }
        }
        audit(request.action(), request.target(), result.jobIds().isEmpty() && request.ids() != null
                ? request.ids() : result.jobIds(), result, user, remoteAddress);
        return result;
    }

    /** Audits a request the dashboard could not read at all, which changed nothing. */
    Result unreadable(String reason, String user, String remoteAddress) {
        Result result = Result.refused(Result.Status.BAD_REQUEST, reason);
        audit("(unreadable)", "nothing (the request could not be read)", List.of(), result, user, remoteAddress);
        return result;
    }

    private void audit(@Nullable String action, String target, List<Long> ids, Result result, String user,
                       String remoteAddress) {
        String jobs = ids.isEmpty() ? "" : " jobs " + (ids.size() <= LOGGED_IDS ? ids.toString()
                : ids.subList(0, LOGGED_IDS) + " and " + (ids.size() - LOGGED_IDS) + " more");
        log.info("Dashboard action by {} from {}: {} on {}{}: {}: {}", printable(user), remoteAddress,
                printable(String.valueOf(action)), printable(target), jobs, result.status().words,
                printable(result.message()));
        events.publishEvent(new DashboardActionEvent(user, remoteAddress, String.valueOf(action), target, ids,
                result.status() == Result.Status.DONE, result.message(), clock.instant()));
    }

    /**
     * Returns text a request supplied as one log line can hold: control characters (a line break that would forge a
     * line of its own) are written as escapes.
     */
    static String printable(String text) {
        StringBuilder line = new StringBuilder(text.length());
        for (char c : text.toCharArray()) {
            if (Character.isISOControl(c)) {
                line.append(String.format("\\u%04x", (int) c));
            } else {
                line.append(c);
            }
        }
        return line.toString();
    }

    /**
     * Counts the queue acted on again, so the page's next overview shows what the action changed instead of a
     * snapshot from before it: one count of that queue per action.
     */
    private void recount(ActionRequest request) {
        String name = request.queue();
        SimpleQueue<Object> queue = name == null ? null : jobs.known(name);
        if (queue != null) {
            queue.diagnostics();
        }
        String subscription = request.subscription();
        if (subscription != null && bus != null && bus.topology().hasSubscription(subscription)) {
            bus.subscription(subscription).diagnostics();
        }
        overview.invalidate();
    }

    private Result dispatch(ActionRequest request) {
        String action = request.action();
        if (action == null) {
            throw new IllegalArgumentException("an action needs 'action'");
        }
        int targets = (request.queue() != null ? 1 : 0) + (request.subscription() != null ? 1 : 0)
                + (request.recurring() != null ? 1 : 0);
        if (targets != 1) {
            throw new IllegalArgumentException("an action names one target: 'queue', 'subscription' or 'recurring'"
                    + (targets == 0 ? "" : ", not several"));
        }
        if (request.ids() != null && Boolean.TRUE.equals(request.all())) {
            throw new IllegalArgumentException("an action takes either the jobs' 'ids' or 'all': true, not both");
        }
        boolean onJobs = JOB_ACTIONS.contains(action) && request.recurring() == null;
        if (!onJobs && (request.ids() != null || request.all() != null)) {
            throw new IllegalArgumentException("'" + action + "' acts on the whole " + (request.recurring() != null
                    ? "recurring job" : request.subscription() != null ? "subscription" : "queue")
                    + ": it takes no 'ids' or 'all'");
        }
        if (request.recurring() != null) {
            require(RECURRING_ACTIONS, action, "a recurring job");
            return described(endpoint.actOnSubscription(LocalQueueEndpoint.RECURRING, request.recurring(), action,
                    null), "no recurring job '" + request.recurring() + "' is stored");
        }
        if (request.subscription() != null) {
            if (RETRY.equals(action)) {
                if (Boolean.TRUE.equals(request.all())) {
                    throw new IllegalArgumentException("a subscription's dead letters are all replayed by '"
                            + QueueActions.RETRY_DEAD_LETTERS + "'; 'retry' takes their 'ids'");
                }
                return replayDelivery(request.subscription(), ids(request));
            }
            if (!SUBSCRIPTION_ACTIONS.contains(action)) {
                throw new IllegalArgumentException("no action '" + action + "' on a subscription; expected one of "
                        + String.join(", ", new java.util.TreeSet<>(SUBSCRIPTION_ACTIONS)) + ", retry");
            }
            return described(endpoint.actOnSubscription(LocalQueueEndpoint.SUBSCRIPTIONS, request.subscription(),
                    action, null), "the event bus has no subscription '" + request.subscription() + "'");
        }
        String name = java.util.Objects.requireNonNull(request.queue());
        if (QUEUE_ACTIONS.contains(action)) {
            return described(endpoint.act(name, action, null, null), "the application has no queue '" + name + "'");
        }
        SimpleQueue<Object> queue = jobs.known(name);
        if (queue == null) {
            return Result.refused(Result.Status.NOT_FOUND, "the application has no queue '" + name + "'");
        }
        return switch (action) {
            case RETRY -> onJobs(queue, request, JobState.FAILED, id -> {
                queue.retryFailed(id);
                return true;
            }, "moved back to the queue");
            case DELETE -> onJobs(queue, request, JobState.FAILED, queue::deleteFailed, "deleted");
            case CANCEL -> onJobs(queue, request, null, queue::cancel, "cancelled");
            case RUN_NOW -> onJobs(queue, request, null, id -> queue.reschedule(id, clock.instant()), "due now");
            case RESCHEDULE -> {
                Instant runAt = request.runAt();
                if (runAt == null) {
                    throw new IllegalArgumentException("a reschedule needs 'runAt'");
                }
                yield onJobs(queue, request, null, id -> queue.reschedule(id, runAt), "due at " + runAt);
            }
            default -> throw new IllegalArgumentException("no action '" + action + "' on a queue; expected one of "
                    + String.join(", ", new java.util.TreeSet<>(QUEUE_ACTIONS))
                    + ", retry, delete, cancel, run-now, reschedule");
        };
    }

    /**
     * Acts on the chosen jobs, or with {@code all} on every job of {@code state} up to the action limit, one
     * transaction per job; a job that changed state meanwhile is skipped and counted, a full queue stops a retry.
     */
    private Result onJobs(SimpleQueue<Object> queue, ActionRequest request, @Nullable JobState state, JobAction act,
                          String done) {
        boolean all = Boolean.TRUE.equals(request.all());
        List<Long> chosen = all ? every(queue, state, request.action()) : ids(request);
        List<Long> changed = new ArrayList<>();
        List<Long> missing = new ArrayList<>();
        int skipped = 0;
        String stopped = "";
        for (long id : chosen) {
            try {
                if (act.apply(id)) {
                    changed.add(id);
                } else if (queue.findJob(id).isEmpty()) {
                    missing.add(id);
                } else {
                    skipped++;
                }
            } catch (JobNotFoundException gone) {
                if (queue.findJob(id).isEmpty()) {
                    missing.add(id);
                } else {
                    skipped++;
                }
            } catch (QueueFullException full) {
                stopped = "; stopped because the queue is full: " + full.getMessage();
                break;
            }
        }
        String message = changed.size() + " job(s) " + done
                + (skipped > 0 ? "; " + skipped + " left alone (not in a state this action applies to)" : "")
                + (missing.isEmpty() ? "" : "; queue '" + queue.name() + "' has no job " + missing)
                + (all && chosen.size() == actionLimit
                        ? "; stopped at the action limit of " + actionLimit + ", run it again for the rest" : "")
                + stopped;
        boolean nothingFound = !chosen.isEmpty() && missing.size() == chosen.size();
        return new Result(nothingFound ? Result.Status.NOT_FOUND : Result.Status.DONE, message, changed);
    }

    private List<Long> every(SimpleQueue<Object> queue, @Nullable JobState state, @Nullable String action) {
        if (state == null) {
            throw new IllegalArgumentException("'" + action + "' acts on chosen jobs only: give their 'ids'");
        }
        List<Long> ids = new ArrayList<>();
        JobCursor after = null;
        while (ids.size() < actionLimit) {
            List<StoredJob<Object>> page = queue.listJobs(state, after, Math.min(500, actionLimit - ids.size()));
            page.forEach(job -> ids.add(job.id()));
            if (page.isEmpty()) {
                break;
            }
            after = page.get(page.size() - 1).cursor();
        }
        return ids;
    }

    private List<Long> ids(ActionRequest request) {
        List<Long> ids = request.ids();
        if (ids == null || ids.isEmpty()) {
            throw new IllegalArgumentException("'" + request.action() + "' needs the jobs' 'ids' (or 'all': true)");
        }
        if (ids.size() > actionLimit) {
            throw new IllegalArgumentException(ids.size() + " jobs is more than the action limit of " + actionLimit
                    + " (" + DashboardProperties.PREFIX + ".action-limit)");
        }
        return ids;
    }

    private Result replayDelivery(String subscription, List<Long> ids) {
        List<Long> changed = new ArrayList<>();
        String last = "";
        for (long id : ids) {
            LocalQueueEndpoint.RetryDescriptor retried = endpoint.retrySubscription(subscription, id);
            if (retried.retried()) {
                changed.add(id);
            } else {
                last = "; " + retried.message();
            }
        }
        Result.Status status = changed.isEmpty() && !ids.isEmpty() ? Result.Status.NOT_FOUND : Result.Status.DONE;
        return new Result(status, changed.size() + " dead letter(s) moved back to the subscription" + last, changed);
    }

    private static void require(Set<String> allowed, String action, String what) {
        if (!allowed.contains(action)) {
            throw new IllegalArgumentException("no action '" + action + "' on " + what + "; expected one of "
                    + String.join(", ", new java.util.TreeSet<>(allowed)));
        }
    }

    private static Result described(@Nullable Object done, String missing) {
        if (done == null) {
            return Result.refused(Result.Status.NOT_FOUND, missing);
        }
        if (done instanceof QueueActions.ActionDescriptor queue) {
            return new Result(Result.Status.DONE, queue.message(), List.of());
        }
        if (done instanceof RecurringActions.ActionDescriptor recurring) {
            return new Result(Result.Status.DONE, recurring.message(),
                    recurring.jobId() == null ? List.of() : List.of(recurring.jobId()));
        }
        return new Result(Result.Status.DONE, String.valueOf(done), List.of());
    }

    /** One job's change: true when it changed, false when the job was not in a state the action applies to. */
    @FunctionalInterface
    private interface JobAction {
        boolean apply(long id);
    }

    /**
     * What the page asks: {@code action} on a {@code queue}, {@code subscription} or {@code recurring} job; for jobs,
     * their {@code ids} or {@code all} (dead letters only); for a reschedule, {@code runAt}.
     *
     * @param action the action's name
     * @param queue the queue acted on, or null
     * @param subscription the subscription acted on, or null
     * @param recurring the recurring job's id, or null
     * @param ids the jobs acted on, or null
     * @param all whether to act on every matching job, up to the action limit
     * @param runAt a reschedule's new due time, or null
     */
    record ActionRequest(@Nullable String action, @Nullable String queue, @Nullable String subscription,
                         @Nullable String recurring, @Nullable List<Long> ids, @Nullable Boolean all,
                         @Nullable Instant runAt) {

        /** What the request acts on, in words for the log. */
        String target() {
            List<String> named = new ArrayList<>();
            if (queue != null) {
                named.add("queue '" + queue + "'");
            }
            if (subscription != null) {
                named.add("subscription '" + subscription + "'");
            }
            if (recurring != null) {
                named.add("recurring job '" + recurring + "'");
            }
            return named.isEmpty() ? "nothing (no target named)" : String.join(" and ", named);
        }
    }

    /**
     * What an action did.
     *
     * @param status how it ended, which gives the HTTP status
     * @param message what happened, in words
     * @param jobIds the jobs it changed
     */
    record Result(Status status, String message, List<Long> jobIds) {

        static Result refused(Status status, String message) {
            return new Result(status, message, List.of());
        }

        /** How an action ended. */
        enum Status {
            DONE("done"), BAD_REQUEST("refused"), FORBIDDEN("refused"), NOT_FOUND("refused"), FAILED("failed");

            final String words;

            Status(String words) {
                this.words = words;
            }
        }
    }
}
