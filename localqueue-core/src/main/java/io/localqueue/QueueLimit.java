package io.localqueue;

/**
 * The limits a queue's claims obey, each stored with the queue so that every process obeys it: a claim that finds due
 * jobs but none a limit lets it take says which limit held it back.
 *
 * @since 0.1.0
 */
public enum QueueLimit {

    /** All the jobs the queue may run at once ({@link SimpleQueue.Builder#maxConcurrent(int)}) are leased. */
    MAX_CONCURRENT,

    /**
     * Every due job's concurrency key has all the jobs it may run at once
     * ({@link SimpleQueue.Builder#maxConcurrentPerKey(int)}) leased.
     */
    MAX_CONCURRENT_PER_KEY,

    /** The claims of the last period ({@link SimpleQueue.Builder#rateLimit(int, java.time.Duration)}) used every permit. */
    RATE_LIMIT
}
