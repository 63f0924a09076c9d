/**
 * The one place that parses CSV text, with Apache Commons CSV, an optional dependency of the module: the event bus's
 * CSV source reads a file's records as bytes and hands each record's text here. Nothing else in the module loads
 * these classes, so an application without a CSV source needs no CSV parser. Internal: not part of the API.
 */
@NullMarked
package io.localqueue.internal.csv;

import org.jspecify.annotations.NullMarked;
