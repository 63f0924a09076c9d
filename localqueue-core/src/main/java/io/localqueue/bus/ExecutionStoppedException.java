package io.localqueue.bus;

import io.localqueue.LocalQueueException;
import java.util.UUID;

/**
 * The bus stopped (or closed) while an execution ran in this process: the batch in flight settled, the source lease
 * was released and everything committed stays, so calling {@link EventBus#execute} again, here or in another
 * process, resumes the same execution at once.
 *
 * @since 0.1.0
 */
public class ExecutionStoppedException extends LocalQueueException {

    private static final long serialVersionUID = 1L;

    private final UUID executionId;

    /**
     * Creates the exception.
     *
     * @param executionId the execution
     */
    public ExecutionStoppedException(UUID executionId) {
        super("execution " + executionId + " stopped with the event bus; what it committed stays, and running it "
                + "again resumes it");
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
