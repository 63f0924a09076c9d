package io.localqueue.bus;

import io.localqueue.LocalQueueException;
import java.time.Duration;
import java.util.UUID;

/**
 * An execution did not complete within its timeout: the batch in flight settled, the source lease was released and
 * everything committed stays; calling {@link EventBus#execute} again resumes the same execution.
 *
 * @since 0.1.0
 */
public class ExecutionTimeoutException extends LocalQueueException {

    private static final long serialVersionUID = 1L;

    private final UUID executionId;

    /**
     * Creates the exception.
     *
     * @param executionId the execution
     * @param timeout the timeout that passed
     */
    public ExecutionTimeoutException(UUID executionId, Duration timeout) {
        super("execution " + executionId + " did not complete within " + timeout + "; run it again to resume it");
        this.executionId = executionId;
    }

    /**
     * Returns the execution, which a later call resumes.
     *
     * @return the id
     */
    public UUID executionId() {
        return executionId;
    }
}
