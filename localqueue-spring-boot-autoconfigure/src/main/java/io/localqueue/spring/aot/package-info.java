/**
 * Ahead-of-time and native-image support: the runtime hints localqueue's Spring layer needs.
 */
@NullMarked
package io.localqueue.spring.aot;

import org.jspecify.annotations.NullMarked;
