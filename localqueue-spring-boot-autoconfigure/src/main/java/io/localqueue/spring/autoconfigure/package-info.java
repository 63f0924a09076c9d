/**
 * Auto-configuration of localqueue for Spring Boot.
 */
@NullMarked
package io.localqueue.spring.autoconfigure;

import org.jspecify.annotations.NullMarked;
