package io.localqueue.internal.store;

import java.util.concurrent.ThreadLocalRandom;
import org.jspecify.annotations.Nullable;

/**
 * Fencing tokens: a random prefix per claim transaction, to which the claim statement appends the message id, so
 * every delivery of every row gets a token no earlier delivery had. A prefix may name the claiming process, its
 * holder: {@value #HOLDER_MARK}, the holder's {@value #HOLDER_LENGTH} hexadecimal digits, 16 random ones and a dash.
 * Other consumers read the holder back from a lease's receipt to tell whether the process holding it still runs. No
 * other receipt begins so: the older ones of this library are 24 hexadecimal digits and a dash, and the Python
 * library's begin with its process id in decimal; those never name a holder.
 */
public final class Receipts {

    /** What opens a receipt that names its holder. */
    public static final String HOLDER_MARK = "h1";

    /** How many lower-case hexadecimal digits a holder name has. */
    public static final int HOLDER_LENGTH = 16;

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private Receipts() {
    }

    /**
     * Returns a fresh prefix that names no holder: 24 hexadecimal digits and a dash.
     *
     * @return the prefix
     */
    public static String newPrefix() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        char[] text = new char[25];
        hex(random.nextLong(), text, 0, 16);
        hex(random.nextInt(), text, 16, 8);
        text[24] = '-';
        return new String(text);
    }

    /**
     * Returns a fresh prefix naming a holder, or one naming none.
     *
     * @param holder the claiming process's holder name, or null
     * @return the prefix
     */
    public static String newPrefix(@Nullable String holder) {
        if (holder == null) {
            return newPrefix();
        }
        char[] text = new char[HOLDER_MARK.length() + HOLDER_LENGTH + 17];
        HOLDER_MARK.getChars(0, HOLDER_MARK.length(), text, 0);
        holder.getChars(0, HOLDER_LENGTH, text, HOLDER_MARK.length());
        hex(ThreadLocalRandom.current().nextLong(), text, HOLDER_MARK.length() + HOLDER_LENGTH, 16);
        text[text.length - 1] = '-';
        return new String(text);
    }

    /**
     * Returns how every receipt written by a holder begins, for statements that find its leases.
     *
     * @param holder a holder name
     * @return the mark and the name
     */
    public static String holderPrefix(String holder) {
        return HOLDER_MARK + holder;
    }

    /**
     * Returns the holder a receipt names.
     *
     * @param receipt a receipt, of any library
     * @return the holder name, or null for a receipt that names none
     */
    public static @Nullable String holderOf(String receipt) {
        int end = HOLDER_MARK.length() + HOLDER_LENGTH;
        if (!receipt.startsWith(HOLDER_MARK) || receipt.length() <= end + 17 || receipt.charAt(end + 16) != '-') {
            return null;
        }
        String holder = receipt.substring(HOLDER_MARK.length(), end);
        return isHolder(holder) ? holder : null;
    }

    /**
     * Tells whether text is a holder name: {@value #HOLDER_LENGTH} lower-case hexadecimal digits.
     *
     * @param text the text
     * @return true when it is
     */
    public static boolean isHolder(@Nullable String text) {
        if (text == null || text.length() != HOLDER_LENGTH) {
            return false;
        }
        for (int i = 0; i < HOLDER_LENGTH; i++) {
            char c = text.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }

    private static void hex(long value, char[] text, int offset, int digits) {
        for (int i = 0; i < digits; i++) {
            text[offset + i] = HEX[(int) (value >>> (4 * (digits - 1 - i))) & 0xf];
        }
    }
}
