package io.localqueue.internal.engine;

/**
 * The text stored as {@code last_error} for an exception: "ExceptionClass: message".
 */
public final class Errors {

    /** Longer diagnostics are cut here so one bad message cannot bloat every row it touches. */
    static final int MAX_LENGTH = 4000;

    private Errors() {
    }

    /**
     * Describes an exception as its class name and message, cut to {@value #MAX_LENGTH} characters.
     *
     * @param failure the exception
     * @return "fully.qualified.ClassName: message" (the message part is empty when there is none)
     */
    public static String describe(Throwable failure) {
        String message = failure.getMessage();
        String text = failure.getClass().getName() + ": " + (message == null ? "" : message);
        return text.length() <= MAX_LENGTH ? text : text.substring(0, MAX_LENGTH - 1) + "…";
    }
}
