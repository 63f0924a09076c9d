package io.localqueue.internal.store;

/**
 * The names of the turns of background work one process (or host) at a time does, as every store keeps them in its
 * table {@code localqueue_turns}.
 */
public final class Turns {

    private Turns() {
    }

    /**
     * Returns the name of a queue's retention turn.
     *
     * @param queue the queue
     * @return its turn's name
     */
    public static String retention(String queue) {
        return "retention:" + queue;
    }
}
