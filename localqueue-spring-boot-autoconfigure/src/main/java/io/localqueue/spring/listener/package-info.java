/**
 * The {@code @QueueListener} machinery: the annotation post-processor, endpoints, the endpoint registry that
 * starts and stops listener containers with the context, and the container factory.
 */
@NullMarked
package io.localqueue.spring.listener;

import org.jspecify.annotations.NullMarked;
