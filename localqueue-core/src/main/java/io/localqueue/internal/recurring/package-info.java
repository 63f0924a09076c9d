/**
 * Recurring jobs in one process: cron schedules read with Spring's {@code CronExpression}, which tick is due and
 * whether it was missed, and the thread that fires the due ticks of every enabled recurring job of a database.
 */
@NullMarked
package io.localqueue.internal.recurring;

import org.jspecify.annotations.NullMarked;
