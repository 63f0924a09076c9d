/**
 * Actuator support for localqueue: the {@code localqueue} endpoint, the health indicator and Micrometer meters.
 */
@NullMarked
package io.localqueue.spring.actuate;

import org.jspecify.annotations.NullMarked;
