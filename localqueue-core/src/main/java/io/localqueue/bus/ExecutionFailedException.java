package io.localqueue.bus;

import io.localqueue.LocalQueueException;

/**
 * An execution completed with dead letters; its result says how many, and {@link Subscription#listFailed()} which.
 *
 * @since 0.1.0
 */
public class ExecutionFailedException extends LocalQueueException {

    private static final long serialVersionUID = 1L;

    private final transient ExecutionResult result;

    /**
     * Creates the exception.
     *
     * @param result the execution's result
     */
    public ExecutionFailedException(ExecutionResult result) {
        super("execution " + result.executionId() + " completed with " + result.deliveriesFailed() + " failed "
                + (result.deliveriesFailed() == 1 ? "delivery" : "deliveries"));
        this.result = result;
    }

    /**
     * Returns the execution's result.
     *
     * @return the result
     */
    public ExecutionResult result() {
        return result;
    }
}
