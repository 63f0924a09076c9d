package io.localqueue.bus;

import org.jspecify.annotations.Nullable;

/**
 * Thrown by a handler to make its delivery a dead letter at once, with reason {@code rejected}, its own words as
 * the last error and an optional category to sort dead letters by; it wins over the handler's permanent errors.
 *
 * @since 0.1.0
 */
public class RejectException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final @Nullable String category;

    /**
     * Rejects without a category.
     *
     * @param reason why, kept as the dead letter's last error
     */
    public RejectException(String reason) {
        this(reason, null);
    }

    /**
     * Rejects with a category.
     *
     * @param reason why, kept as the dead letter's last error
     * @param category stored as the dead letter's failure category, or null
     */
    public RejectException(String reason, @Nullable String category) {
        super(reason);
        this.category = category;
    }

    /**
     * Returns the category.
     *
     * @return the category, or null
     */
    public @Nullable String category() {
        return category;
    }
}
