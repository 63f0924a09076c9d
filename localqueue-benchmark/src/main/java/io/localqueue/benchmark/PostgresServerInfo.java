package io.localqueue.benchmark;

import java.util.Map;

/**
 * The conditions of the PostgreSQL server a run measured.
 *
 * @param version the server's version, and the JDBC driver's
 * @param settings the settings the report records, as the server reports them (its defaults for every session)
 * @param dataDirectoryFileSystem the type of the filesystem holding the server's data directory
 */
public record PostgresServerInfo(String version, Map<String, String> settings, String dataDirectoryFileSystem) {
}
