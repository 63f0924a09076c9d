package io.localqueue.benchmark;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The CPU a database server on this machine uses: its postmaster and every process it started (backends, writers,
 * autovacuum), found from the process of one backend. A scenario samples it before and after its measured region;
 * processes that exit in between take their CPU with them, so the figure is a floor.
 */
final class ServerCpu {

    private final ProcessHandle postmaster;

    private ServerCpu(ProcessHandle postmaster) {
        this.postmaster = postmaster;
    }

    /**
     * Finds the server behind a JDBC URL through the parent of the backend that serves one connection.
     *
     * @param url the server's URL, user included
     * @return the server's processes
     * @throws IllegalStateException when the server does not run on this machine, as this user can see it
     */
    static ServerCpu of(String url) {
        try (Connection connection = DriverManager.getConnection(url);
             Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT pg_backend_pid()")) {
            rows.next();
            long backend = rows.getLong(1);
            ProcessHandle postmaster = ProcessHandle.of(backend).flatMap(ProcessHandle::parent)
                    .orElseThrow(() -> new IllegalStateException("backend " + backend + " of " + url
                            + " is not a process of this machine"));
            return new ServerCpu(postmaster);
        } catch (SQLException failure) {
            throw new IllegalStateException("cannot reach " + url + ": " + failure.getMessage(), failure);
        }
    }

    /**
     * Reads the CPU each of the server's processes has used so far.
     *
     * @return nanoseconds of CPU by process id
     */
    Map<Long, Long> sample() {
        Map<Long, Long> used = new HashMap<>();
        Stream.concat(Stream.of(postmaster), postmaster.descendants()).forEach(process -> process.info()
                .totalCpuDuration().ifPresent(cpu -> used.put(process.pid(), cpu.toNanos())));
        return used;
    }

    /**
     * The CPU the server used between two samples, counting a process born in between from zero.
     *
     * @param before the earlier sample
     * @param after the later sample
     * @return nanoseconds of CPU
     */
    static long usedBetween(Map<Long, Long> before, Map<Long, Long> after) {
        long used = 0;
        for (Map.Entry<Long, Long> process : after.entrySet()) {
            used += Math.max(0, process.getValue() - before.getOrDefault(process.getKey(), 0L));
        }
        return used;
    }
}
