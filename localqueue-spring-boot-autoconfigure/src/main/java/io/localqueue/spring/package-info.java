/**
 * Spring Boot support for localqueue.
 */
@NullMarked
package io.localqueue.spring;

import org.jspecify.annotations.NullMarked;
