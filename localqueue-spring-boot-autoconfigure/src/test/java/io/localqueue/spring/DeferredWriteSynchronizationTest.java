package io.localqueue.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.transaction.support.TransactionSynchronization;

/** The outcomes Spring's transactions rarely produce, driven by hand. */
class DeferredWriteSynchronizationTest {

    private final Recording write = new Recording();
    private final DeferredWriteSynchronization synchronization = new DeferredWriteSynchronization(write);

    @Test
    void writesOnceAfterTheCommitAndMarksTheThreadWhileWriting() {
        synchronization.afterCommit();
        synchronization.afterCompletion(TransactionSynchronization.STATUS_COMMITTED);

        assertThat(write.calls).containsExactly("write (writing=true)");
        assertThat(DeferredWriteSynchronization.isWriting()).isFalse();
    }

    @Test
    void writesOnACommitWhoseAfterCommitSpringSkipped() {
        synchronization.afterCompletion(TransactionSynchronization.STATUS_COMMITTED);

        assertThat(write.calls).containsExactly("write (writing=true)");
    }

    @Test
    void aTransactionOfUnknownOutcomeReportsTheWriteAsFailed() {
        synchronization.afterCompletion(TransactionSynchronization.STATUS_UNKNOWN);

        assertThat(write.calls).singleElement().asString().startsWith("failed: java.lang.IllegalStateException")
                .contains("unknown");
    }

    @Test
    void aSavepointTakenBeforeTheWriteKeepsItAndOneTakenAfterDropsIt() {
        Object before = new Object();
        Object after = new Object();
        synchronization.savepoint(before);

        synchronization.savepointRollback(before);
        assertThat(write.calls).isEmpty();
        synchronization.savepointRollback(after);
        synchronization.afterCommit();

        assertThat(write.calls).containsExactly("rolled back");
    }

    @Test
    void aFailingWriteAndAFailingReportNeverReachTheCommittingCaller() {
        write.failWrite = true;
        write.failReport = true;

        assertThatCode(synchronization::afterCommit).doesNotThrowAnyException();
        assertThat(write.calls).containsExactly("write (writing=true)", "failed: java.lang.IllegalStateException: "
                + "no room");
        assertThat(DeferredWriteSynchronization.isWriting()).isFalse();
    }

    /** Records what it was told. */
    private static final class Recording implements DeferredWrite {
        final List<String> calls = new ArrayList<>();
        boolean failWrite;
        boolean failReport;

        @Override
        public void write() {
            calls.add("write (writing=" + DeferredWriteSynchronization.isWriting() + ")");
            if (failWrite) {
                throw new IllegalStateException("no room");
            }
        }

        @Override
        public void rolledBack() {
            calls.add("rolled back");
        }

        @Override
        public void failed(RuntimeException failure) {
            calls.add("failed: " + failure);
            if (failReport) {
                throw new IllegalStateException("a listener failed");
            }
        }
    }
}
