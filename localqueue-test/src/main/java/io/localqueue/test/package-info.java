/**
 * Testing Spring Boot applications that use localqueue: {@link io.localqueue.test.AutoConfigureLocalQueue} gives each
 * test context a temporary queue directory, and {@link io.localqueue.test.LocalQueueTestSupport} drains queues through
 * their listeners, checks what waits in them and moves their clock.
 */
@NullMarked
package io.localqueue.test;

import org.jspecify.annotations.NullMarked;
