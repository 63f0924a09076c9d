package io.localqueue.spring.actuate;

import io.localqueue.FailedMessage;
import io.localqueue.JobNotFoundException;
import io.localqueue.QueueFullException;
import io.localqueue.SimpleQueue;
import io.localqueue.bus.FailedDelivery;
import io.localqueue.bus.Subscription;
import io.localqueue.spring.listener.QueueListenerContainer;
import io.localqueue.spring.listener.QueueListenerEndpointRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.BiFunction;
import java.util.function.LongConsumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.format.datetime.standard.DurationFormatterUtils;

/**
 * What an operator may do to a whole queue through the endpoint: replay every dead letter, purge old finished jobs
 * and dead letters, pause or resume it for every process, or only this instance's listeners of it; and to an
 * event-bus subscription: the same, its handlers in this instance taking the listeners' place. Each action reports
 * how many things it changed, and each one that ran is logged at INFO, since it may stop or change every process.
 *
 * @since 0.1.0
 */
public final class QueueActions {

    /** Replays every dead letter of the queue, stopping at the first that finds the queue full. */
    public static final String RETRY_DEAD_LETTERS = "retry-dead-letters";
    /** Deletes acknowledged jobs and dead letters last changed longer ago than {@code olderThan}. */
    public static final String PURGE = "purge";
    /** Pauses the queue for every process on the file or schema, every instance of the application included. */
    public static final String PAUSE = "pause";
    /** Lets every process claim from the queue again. */
    public static final String RESUME = "resume";
    /** Pauses this instance's listeners of the queue (a subscription's consumer here) only, to drain one instance. */
    public static final String PAUSE_HERE = "pause-here";
    /** Resumes this instance's listeners of the queue (a subscription's consumer here). */
    public static final String RESUME_HERE = "resume-here";

    private static final int PAGE = 500;

    private static final Logger log = LoggerFactory.getLogger(QueueActions.class);

    private QueueActions() {
    }

    /**
     * Runs one action.
     *
     * @param queue the queue, known to the application
     * @param action one of the constants of this class
     * @param olderThan for {@link #PURGE}: a duration such as {@code 7d}; null for every finished job
     * @param listeners the listener containers, or null when there are none
     * @return what happened, or null for an action that does not exist
     * @throws IllegalArgumentException when {@code olderThan} is not a duration
     */
    static @Nullable ActionDescriptor run(SimpleQueue<Object> queue, String action, @Nullable String olderThan,
                                          @Nullable QueueListenerEndpointRegistry listeners) {
        return logged("queue", switch (action) {
            case RETRY_DEAD_LETTERS -> retryDeadLetters(queue.name(), "queue", (limit, offset) -> queue
                    .listFailed(limit, offset).stream().map(FailedMessage::id).toList(), queue::retryFailed);
            case PURGE -> purge(queue.name(), olderThan, queue::purge, "acknowledged job(s) and dead letter(s)");
            case PAUSE -> everywhere(queue.name(), PAUSE, queue.pause());
            case RESUME -> everywhere(queue.name(), RESUME, queue.resume());
            case PAUSE_HERE -> containers(queue, action, listeners, QueueListenerContainer::pause, "paused");
            case RESUME_HERE -> containers(queue, action, listeners, QueueListenerContainer::resume, "resumed");
            default -> null;
        });
    }

    /**
     * Runs one action on an event-bus subscription: {@link #RETRY_DEAD_LETTERS}, {@link #PURGE} (which keeps the
     * deliveries of an execution until the execution is deleted), {@link #PAUSE} and {@link #RESUME} for every
     * process, or {@link #PAUSE_HERE} and {@link #RESUME_HERE} for this instance's consumer.
     *
     * @param subscription the subscription
     * @param action the action
     * @param olderThan for {@link #PURGE}: a duration such as {@code 7d}; null for every finished delivery
     * @return what happened, or null for an action that does not exist for a subscription
     * @throws IllegalArgumentException when {@code olderThan} is not a duration
     */
    static @Nullable ActionDescriptor run(Subscription subscription, String action, @Nullable String olderThan) {
        return logged("subscription", switch (action) {
            case RETRY_DEAD_LETTERS -> retryDeadLetters(subscription.name(), "subscription",
                    (limit, offset) -> subscription.listFailed(limit, offset).stream().map(FailedDelivery::id)
                            .toList(), subscription::retryFailed);
            case PURGE -> purge(subscription.name(), olderThan, subscription::purge,
                    "acknowledged deliveries and dead letter(s) no execution holds");
            case PAUSE -> everywhere(subscription.name(), PAUSE, subscription.pause());
            case RESUME -> everywhere(subscription.name(), RESUME, subscription.resume());
            case PAUSE_HERE -> here(subscription, PAUSE_HERE, Subscription::pauseHere, "paused");
            case RESUME_HERE -> here(subscription, RESUME_HERE, Subscription::resumeHere, "resumed");
            default -> null;
        });
    }

    private static @Nullable ActionDescriptor logged(String noun, @Nullable ActionDescriptor done) {
        if (done != null) {
            log.info("Operator action {} on {} '{}': {}", done.action(), noun, done.queue(), done.message());
        }
        return done;
    }

    /** Deletes the finished rows, dead letters included, unchanged for {@code olderThan} (every one when null). */
    private static ActionDescriptor purge(String name, @Nullable String olderThan, Purge purge, String what) {
        Duration age = olderThan == null ? Duration.ZERO : DurationFormatterUtils.detectAndParse(olderThan);
        int purged = purge.purge(age, true);
        return new ActionDescriptor(name, PURGE, purged, "deleted " + purged + " " + what + " unchanged for " + age);
    }

    /**
     * Replays each dead letter there was when the action began, once: a replayed one that fails again at once is a
     * dead letter anew, and is left for the next request rather than replayed in a loop.
     */
    private static ActionDescriptor retryDeadLetters(String name, String noun,
                                                     BiFunction<Integer, Integer, List<Long>> page,
                                                     LongConsumer retry) {
        List<Long> ids = new ArrayList<>();
        for (List<Long> read = page.apply(PAGE, 0); !read.isEmpty(); read = page.apply(PAGE, ids.size())) {
            ids.addAll(read);
        }
        int retried = 0;
        String stopped = "";
        for (long id : ids) {
            try {
                retry.accept(id);
                retried++;
            } catch (JobNotFoundException goneMeanwhile) {
                // replayed or purged by someone else since it was listed
            } catch (QueueFullException full) {
                stopped = "; stopped because the " + noun + " is full: " + full.getMessage();
                break;
            }
        }
        return new ActionDescriptor(name, RETRY_DEAD_LETTERS, retried,
                "moved " + retried + " dead letter(s) back to the " + noun + stopped);
    }

    /** Reports a pause or resume for every process: 1 when it changed the state, 0 when it was so already. */
    private static ActionDescriptor everywhere(String name, String action, boolean changed) {
        String state = action.equals(PAUSE) ? "paused" : "running";
        return new ActionDescriptor(name, action, changed ? 1 : 0,
                changed ? "now " + state + " for every process" : "was " + state + " already");
    }

    private static ActionDescriptor here(Subscription subscription, String action, Consumer<Subscription> change,
                                         String done) {
        change.accept(subscription);
        return new ActionDescriptor(subscription.name(), action, 1, done + " this instance's consumer");
    }

    private static ActionDescriptor containers(SimpleQueue<Object> queue, String action,
                                               @Nullable QueueListenerEndpointRegistry listeners,
                                               Consumer<QueueListenerContainer> change, String done) {
        int changed = 0;
        if (listeners != null) {
            for (QueueListenerContainer container : listeners.getListenerContainers()) {
                if (container.endpoint().queue().equals(queue.name())) {
                    change.accept(container);
                    changed++;
                }
            }
        }
        return new ActionDescriptor(queue.name(), action, changed, done + " " + changed + " listener(s)");
    }

    /** A queue's or a subscription's purge. */
    @FunctionalInterface
    private interface Purge {
        int purge(Duration olderThan, boolean includeFailed);
    }

    /**
     * The outcome of an action on a queue.
     *
     * @param queue the queue name, or the subscription's
     * @param action the action
     * @param affected how many jobs or listeners it changed
     * @param message what happened, in words
     *
     * @since 0.1.0
     */
    public record ActionDescriptor(String queue, String action, int affected, String message) {
    }
}
