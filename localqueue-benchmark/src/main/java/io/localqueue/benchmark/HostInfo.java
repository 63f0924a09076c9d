package io.localqueue.benchmark;

import io.localqueue.DurabilityMode;
import io.localqueue.LocalQueueDatabase;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import org.sqlite.SQLiteJDBCLoader;

/**
 * The conditions of a run: hardware, JDK, SQLite, the filesystem the queue files live on, the durability modes, and
 * on a PostgreSQL run the server's version and settings.
 *
 * @param cpus processors available to the JVM
 * @param cpuModel the processor model, when the operating system tells
 * @param memoryBytes physical memory, when the JVM can tell
 * @param os operating system name, version and architecture
 * @param jdk the Java runtime version and vendor
 * @param jvm the virtual machine name
 * @param maxHeapBytes the benchmark JVM's maximum heap
 * @param sqliteVersion the SQLite library version
 * @param sqliteJdbcVersion the sqlite-jdbc driver version
 * @param workDirectoryFileSystem the type of the filesystem holding the queue files, such as ext4 or tmpfs
 * @param durabilityModes each measured mode with its {@code synchronous} (or {@code synchronous_commit}) setting
 * @param childJvmFlags the flags child JVMs run with
 * @param store where the queues were kept: {@code sqlite} or {@code postgresql}
 * @param postgresql the PostgreSQL server's conditions, or null on SQLite
 */
public record HostInfo(int cpus, @Nullable String cpuModel, @Nullable Long memoryBytes, String os, String jdk,
                       String jvm, long maxHeapBytes, String sqliteVersion, String sqliteJdbcVersion,
                       String workDirectoryFileSystem, List<String> durabilityModes, List<String> childJvmFlags,
                       String store, @Nullable PostgresServerInfo postgresql) {

    /**
     * Collects the conditions of this JVM and work directory for a run on SQLite.
     *
     * @param workRoot the run's work directory
     * @param modes the measured durability modes
     * @return the conditions
     * @throws IOException when the work directory cannot be examined
     */
    public static HostInfo collect(Path workRoot, List<DurabilityMode> modes) throws IOException {
        return collect(workRoot, modes, null);
    }

    /**
     * Collects the conditions of this JVM, the work directory and the PostgreSQL server, if the run has one.
     *
     * @param workRoot the run's work directory
     * @param modes the measured durability modes
     * @param postgresql the server's conditions on a PostgreSQL run, else null
     * @return the conditions
     * @throws IOException when the work directory cannot be examined
     */
    public static HostInfo collect(Path workRoot, List<DurabilityMode> modes, @Nullable PostgresServerInfo postgresql)
            throws IOException {
        String sqliteVersion;
        Path probe = Files.createDirectories(workRoot.resolve("probe"));
        try (LocalQueueDatabase database = LocalQueueDatabase.open(probe)) {
            sqliteVersion = database.sqliteVersion();
        }
        List<String> modeNames = new ArrayList<>();
        for (DurabilityMode mode : modes) {
            if (postgresql == null) {
                modeNames.add(mode + " (synchronous=" + (mode == DurabilityMode.DURABLE ? "FULL" : "NORMAL") + ")");
            } else if (mode == DurabilityMode.DURABLE) {
                modeNames.add(mode + " (synchronous_commit=" + postgresql.settings().get("synchronous_commit")
                        + ", the server's)");
            } else {
                modeNames.add(mode + " (synchronous_commit=off in each transaction)");
            }
        }
        return new HostInfo(Runtime.getRuntime().availableProcessors(), readCpuModel(), readMemoryBytes(),
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                        + System.getProperty("os.arch"),
                System.getProperty("java.runtime.version", System.getProperty("java.version")) + " ("
                        + System.getProperty("java.vendor") + ")",
                System.getProperty("java.vm.name"), Runtime.getRuntime().maxMemory(), sqliteVersion,
                SQLiteJDBCLoader.getVersion(), Files.getFileStore(workRoot).type(), modeNames, ChildJvms.JVM_FLAGS,
                postgresql == null ? BenchStore.Sqlite.NAME : PostgresBenchStore.NAME, postgresql);
    }

    /**
     * Returns the system load average over the last minute, or a negative number when unavailable.
     *
     * @return the load average
     */
    public static double loadAverage() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    private static @Nullable Long readMemoryBytes() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getTotalMemorySize();
        }
        return null;
    }

    private static @Nullable String readCpuModel() {
        Path cpuInfo = Path.of("/proc/cpuinfo");
        if (!Files.isReadable(cpuInfo)) {
            return null;
        }
        try (var lines = Files.lines(cpuInfo)) {
            return lines.filter(line -> line.toLowerCase(Locale.ROOT).startsWith("model name"))
                    .map(line -> line.substring(line.indexOf(':') + 1).trim())
                    .findFirst().orElse(null);
        } catch (IOException | java.io.UncheckedIOException unreadable) {
            return null;
        }
    }
}
