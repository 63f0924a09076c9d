package io.localqueue.internal.store;

import java.util.concurrent.ThreadLocalRandom;

/**
 * Fencing tokens: a random 96-bit prefix per claim transaction, to which the claim statement appends the message
 * id, so every delivery of every row gets a token no earlier delivery had.
 */
public final class Receipts {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private Receipts() {
    }

    /**
     * Returns a fresh prefix: 24 hexadecimal digits and a dash.
     *
     * @return the prefix
     */
    public static String newPrefix() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long high = random.nextLong();
        int low = random.nextInt();
        char[] text = new char[25];
        for (int i = 0; i < 16; i++) {
            text[i] = HEX[(int) (high >>> (60 - 4 * i)) & 0xf];
        }
        for (int i = 0; i < 8; i++) {
            text[16 + i] = HEX[(low >>> (28 - 4 * i)) & 0xf];
        }
        text[24] = '-';
        return new String(text);
    }
}
