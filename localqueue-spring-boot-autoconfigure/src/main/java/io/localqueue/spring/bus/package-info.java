/**
 * Not API: how the application's event bus is started, configured and stopped with the application.
 */
@NullMarked
package io.localqueue.spring.bus;

import org.jspecify.annotations.NullMarked;
