/**
 * The operations command line, {@code java -jar localqueue-cli-<version>.jar}: reads and repairs a queue directory or
 * a PostgreSQL schema with the application running or not.
 */
@NullMarked
package io.localqueue.cli;

import org.jspecify.annotations.NullMarked;
