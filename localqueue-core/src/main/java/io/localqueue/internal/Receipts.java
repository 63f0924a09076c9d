package io.localqueue.internal;

import java.util.concurrent.ThreadLocalRandom;

/**
 * Fencing tokens: a random 96-bit prefix per claim transaction, to which SQL appends the message id, so every
 * delivery of every row gets a token no earlier delivery had.
 */
final class Receipts {

    private Receipts() {
    }

    static String newPrefix() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        return String.format("%016x%08x-", random.nextLong(), random.nextInt());
    }
}
