package io.localqueue.benchmark;

import java.lang.management.ManagementFactory;
import java.time.Duration;

/**
 * The CPU time this JVM has used, all threads together.
 */
final class ProcessCpu {

    private ProcessCpu() {
    }

    /**
     * Returns the process CPU time so far.
     *
     * @return nanoseconds of CPU, user and system, across all threads
     */
    static long nanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return ProcessHandle.current().info().totalCpuDuration().orElse(Duration.ZERO).toNanos();
    }
}
