package io.localqueue.internal.store;

import io.localqueue.QueueLimit;

/**
 * Why a claim that found due jobs took none: a limit of the queue's held them back.
 *
 * @param limit the limit that did
 * @param until when time alone lets the next claim through (the rate limit's next permit), or
 *              {@link Long#MAX_VALUE} when only a commit can (a lease settled, or one that expires)
 */
public record ClaimHold(QueueLimit limit, long until) {
}
