package io.localqueue.spring.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Reports a start that could not open the queues' database: the store's own words, and the settings to check. */
final class UnavailableStoreFailureAnalyzer extends AbstractFailureAnalyzer<UnavailableStoreException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, UnavailableStoreException cause) {
        return new FailureAnalysis(cause.getMessage(), cause.action(), cause);
    }
}
