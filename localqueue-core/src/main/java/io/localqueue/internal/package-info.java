/**
 * Not API: the SQLite store behind the public types. Everything here may change between releases.
 */
@NullMarked
package io.localqueue.internal;

import org.jspecify.annotations.NullMarked;
