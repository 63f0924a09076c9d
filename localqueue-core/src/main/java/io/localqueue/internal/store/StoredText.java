package io.localqueue.internal.store;

import io.localqueue.InvalidArgumentException;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Checks text the store keeps as an identity (queue names, job ids). SQLite and Python hold text as UTF-8, which
 * cannot carry a lone UTF-16 surrogate; the JDBC driver would silently store {@code ?} in its place, so distinct
 * names would merge. Such text is refused instead.
 */
public final class StoredText {

    private StoredText() {
    }

    /**
     * Returns {@code value} when it is well-formed UTF-16 (null passes).
     *
     * @param value the text
     * @param parameter the parameter's name, for the message
     * @return {@code value}
     * @throws IllegalArgumentException naming {@code parameter} when it holds an unpaired surrogate
     */
    public static @Nullable String requireWellFormed(@Nullable String value, String parameter) {
        if (value == null) {
            return null;
        }
        int length = value.length();
        for (int i = 0; i < length; i++) {
            char c = value.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < length && Character.isLowSurrogate(value.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new InvalidArgumentException(parameter, parameter + " holds a lone UTF-16 surrogate (\\u"
                        + Integer.toHexString(c).toUpperCase(Locale.ROOT) + ") at index " + i
                        + "; it cannot be stored as UTF-8, so it would not stay distinct");
            }
        }
        return value;
    }
}
