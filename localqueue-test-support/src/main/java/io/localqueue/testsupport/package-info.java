/**
 * Support for the project's own multi-process tests and benchmarks: child JVMs driven over a line protocol.
 */
package io.localqueue.testsupport;
