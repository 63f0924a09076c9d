package io.localqueue.samples.csvimport;

import java.nio.file.Path;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * What the sample imports and how: {@code csv-import.*}.
 *
 * @param file the CSV of users, generated when it does not exist
 * @param rows how many rows a generated file has
 * @param importId the import's name: part of each event's identity and of the checkpoint {@code users:<importId>}
 * @param batchSize rows committed per transaction
 * @param maxPending the most deliveries waiting for the handlers before the reading pauses
 * @param cleanup whether a completed import is cleaned up: its execution deleted, its acknowledged deliveries purged
 *                and the queue file vacuumed, so that the file is small again; the dead letters stay
 * @since 0.1.0
 */
@ConfigurationProperties("csv-import")
public record CsvImportProperties(@DefaultValue("./users.csv") Path file,
                                  @DefaultValue("100000") int rows,
                                  @DefaultValue("2026-07") String importId,
                                  @DefaultValue("1000") int batchSize,
                                  @DefaultValue("10000") long maxPending,
                                  @DefaultValue("false") boolean cleanup) {
}
