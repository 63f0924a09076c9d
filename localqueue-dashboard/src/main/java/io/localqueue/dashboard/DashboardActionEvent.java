package io.localqueue.dashboard;

import java.time.Instant;
import java.util.List;

/**
 * Published for every action the dashboard ran, refused actions included, so an application can audit who did what:
 * listen with {@code @EventListener} on this type.
 *
 * @param user who asked: the request's principal name, or {@code anonymous} without one
 * @param remoteAddress the address the request came from
 * @param action what was asked, such as {@code retry} or {@code pause}
 * @param target what it was asked of: {@code queue 'emails'}, {@code subscription 'audit'}, {@code recurring job 'x'}
 * @param jobIds the jobs it changed (or was asked to change, when refused), empty for an action on a whole target
 * @param succeeded whether it ran; false when refused (read-only, bad request) or failed
 * @param outcome what happened, in words
 * @param at when it finished
 * @since 0.1.0
 */
public record DashboardActionEvent(String user, String remoteAddress, String action, String target,
                                   List<Long> jobIds, boolean succeeded, String outcome, Instant at) {
}
