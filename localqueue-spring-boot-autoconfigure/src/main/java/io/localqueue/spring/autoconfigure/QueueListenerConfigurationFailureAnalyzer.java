package io.localqueue.spring.autoconfigure;

import io.localqueue.spring.listener.QueueListenerConfigurationException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports a listener that cannot run with its settings: which listener, why, and the property to fix.
 */
final class QueueListenerConfigurationFailureAnalyzer
        extends AbstractFailureAnalyzer<QueueListenerConfigurationException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, QueueListenerConfigurationException cause) {
        Throwable refused = cause.getCause();
        String reason = refused != null ? refused.getMessage() : cause.getMessage();
        return new FailureAnalysis("@QueueListener '" + cause.listenerId() + "' on queue '" + cause.queue()
                + "' cannot run: " + reason + ".",
                "Fix " + cause.property() + ", or the setting of the listener's container factory if the application"
                        + " builds its own.", cause);
    }
}
