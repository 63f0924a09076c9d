/**
 * Not API: time as the library reckons it: durations validated into epoch-millisecond arithmetic, deadlines on the
 * monotonic clock, and the jittered pauses of a caller that waits for a lock within a budget.
 */
@NullMarked
package io.localqueue.internal.time;

import org.jspecify.annotations.NullMarked;
