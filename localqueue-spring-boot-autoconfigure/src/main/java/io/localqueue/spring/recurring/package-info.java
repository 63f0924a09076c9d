/**
 * {@code @Recurring} methods: found on beans, scheduled as the application's recurring jobs when the context starts,
 * and run by a listener of each queue they are enqueued into.
 */
@NullMarked
package io.localqueue.spring.recurring;

import org.jspecify.annotations.NullMarked;
