package io.localqueue.internal.store;

/**
 * A queue paused for every process: when and by whom.
 *
 * @param pausedAt when it was paused, epoch milliseconds on the pausing queue's clock
 * @param pausedBy who paused it: the pausing process's name for itself
 */
public record QueuePause(long pausedAt, String pausedBy) {
}
