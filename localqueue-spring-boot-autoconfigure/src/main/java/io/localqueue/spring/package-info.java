/**
 * Spring Boot support for localqueue: {@code localqueue.*} properties, {@link io.localqueue.spring.QueueListener},
 * the {@link io.localqueue.spring.LocalQueueTemplate} for producers and the queue registry.
 */
@NullMarked
package io.localqueue.spring;

import org.jspecify.annotations.NullMarked;
