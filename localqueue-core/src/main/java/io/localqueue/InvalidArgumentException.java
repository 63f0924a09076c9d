package io.localqueue;

/**
 * An argument the library refuses, naming the refused parameter as data ({@link #parameter()}, as its Javadoc spells
 * it) besides the message, so that a caller that built the value from its own settings can point at the setting
 * rather than parse the message; every other behaviour is that of {@link IllegalArgumentException}.
 *
 * @since 0.1.0
 */
public class InvalidArgumentException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    /** The refused parameter. */
    private final String parameter;

    /**
     * Creates the refusal of one parameter.
     *
     * @param parameter the parameter's name, such as {@code maxAttempts}
     * @param message what is wrong with it, naming it too
     */
    public InvalidArgumentException(String parameter, String message) {
        super(message);
        this.parameter = parameter;
    }

    /**
     * Creates the refusal of one parameter, with its cause.
     *
     * @param parameter the parameter's name, such as {@code maxAttempts}
     * @param message what is wrong with it, naming it too
     * @param cause what made it invalid
     */
    public InvalidArgumentException(String parameter, String message, Throwable cause) {
        super(message, cause);
        this.parameter = parameter;
    }

    /**
     * Returns the name of the refused parameter, as the refusing method's Javadoc spells it; for an argument checked
     * inside a collection or a header map, the name of the whole argument.
     *
     * @return the parameter's name, never null
     */
    public String parameter() {
        return parameter;
    }
}
