/**
 * Spring MVC support for localqueue: the answer a web request gets when its queue is full or closing.
 */
@NullMarked
package io.localqueue.spring.web;

import org.jspecify.annotations.NullMarked;
