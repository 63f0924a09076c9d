package io.localqueue.spring.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports a start refused for an old SQLite library: what is at risk, and the one-line fix or the property that
 * accepts the risk.
 */
final class UnsafeSqliteVersionFailureAnalyzer extends AbstractFailureAnalyzer<UnsafeSqliteVersionException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, UnsafeSqliteVersionException cause) {
        return new FailureAnalysis(cause.description(), cause.action(), cause);
    }
}
