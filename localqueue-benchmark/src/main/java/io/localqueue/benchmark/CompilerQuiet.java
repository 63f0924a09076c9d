package io.localqueue.benchmark;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;

/**
 * Waits, after a child's warm-up, until the JIT compiler has finished what the warm-up queued: on a few cores shared
 * by several JVMs the compiler threads fall behind, and compiling in the measured region would count as the cost of
 * the jobs. Outside any measured region.
 */
final class CompilerQuiet {

    private static final long STEP_MILLIS = 50;
    private static final long QUIET_MILLIS = 300;

    private CompilerQuiet() {
    }

    /**
     * Returns once no compilation time accrued for a few hundred milliseconds, or after {@code atMost}.
     *
     * @param atMost the longest wait
     * @throws InterruptedException when interrupted
     */
    static void await(Duration atMost) throws InterruptedException {
        CompilationMXBean compiler = ManagementFactory.getCompilationMXBean();
        if (compiler == null || !compiler.isCompilationTimeMonitoringSupported()) {
            return;
        }
        long deadline = System.nanoTime() + atMost.toNanos();
        long last = compiler.getTotalCompilationTime();
        long quietSince = System.nanoTime();
        while (System.nanoTime() - deadline < 0) {
            Thread.sleep(STEP_MILLIS);
            long now = compiler.getTotalCompilationTime();
            if (now != last) {
                last = now;
                quietSince = System.nanoTime();
            } else if (System.nanoTime() - quietSince >= QUIET_MILLIS * 1_000_000) {
                return;
            }
        }
    }
}
