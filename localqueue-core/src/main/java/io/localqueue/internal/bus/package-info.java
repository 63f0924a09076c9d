/**
 * Not API: the identity hashes the event bus shares with Python's bus, byte for byte: canonical JSON as Python's
 * {@code json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=False)} writes it, and floats spelled as
 * Python's {@code repr}.
 */
@NullMarked
package io.localqueue.internal.bus;

import org.jspecify.annotations.NullMarked;
