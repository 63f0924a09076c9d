package io.localqueue.bus;

/**
 * An event's identity cannot be made: its declaration names a field the payload lacks, a metadata key or the same
 * field twice, or a dispatched event has an identity value that is missing, null, blank or not a finite JSON value.
 * Nothing was written.
 *
 * @since 0.1.0
 */
public class InvalidEventIdentityException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what is wrong, naming the class and the field
     */
    public InvalidEventIdentityException(String message) {
        super(message);
    }
}
