/**
 * The operator's dashboard: a page the application serves at {@code localqueue.dashboard.path} (default
 * {@code /localqueue}) with its queues, jobs, dead letters, recurring jobs and event-bus subscriptions, read-only
 * unless {@code localqueue.dashboard.read-only=false}; {@link io.localqueue.dashboard.DashboardRedactor} decides what
 * of a payload it shows, and each action is published as a {@link io.localqueue.dashboard.DashboardActionEvent}.
 */
@NullMarked
package io.localqueue.dashboard;

import org.jspecify.annotations.NullMarked;
