package io.localqueue.spring.autoconfigure;

import io.localqueue.spring.listener.InvalidHandlerMethodException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports a {@code @QueueListener} or {@code @EventHandler} method that cannot be used: which method, what is wrong
 * with it, and what to fix, instead of the stack trace of the bean that could not be created.
 */
final class InvalidHandlerMethodFailureAnalyzer extends AbstractFailureAnalyzer<InvalidHandlerMethodException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidHandlerMethodException cause) {
        return new FailureAnalysis(cause.getMessage() + ".",
                "Fix the " + cause.annotation() + " of " + cause.method() + "; a ${...} placeholder takes its value "
                        + "from the property it names.", cause);
    }
}
