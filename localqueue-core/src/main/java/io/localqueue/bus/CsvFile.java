package io.localqueue.bus;

import io.localqueue.internal.csv.CsvFields;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * What reading a {@link CsvSource}'s file needs: the file as it was when the source was made, its encoding, the
 * given columns (or null to read the header), and the parser of its dialect.
 *
 * @param header the columns when given, else null
 */
record CsvFile(Path path, Charset charset, @Nullable List<String> header, CsvFields fields, Snapshot snapshot) {

    /** Fails when the file is not the one the source was made on. */
    void requireUnchanged(long record, long line) {
        Snapshot now = Snapshot.of(path, record, line);
        if (!now.equals(snapshot)) {
            throw new CsvSourceException(path, record, line, "the file changed while it was read (" + snapshot
                    + " became " + now + ")", null);
        }
    }

    /** What identifies a file's content between runs without reading it: its size, time and identity. */
    record Snapshot(long size, long modifiedNanos, @Nullable String fileKey) {

        /** Reads a file's snapshot; the record and line locate an error. */
        static Snapshot of(Path path, long record, long line) {
            try {
                BasicFileAttributes attributes = Files.readAttributes(path, BasicFileAttributes.class);
                Object key = attributes.fileKey();
                return new Snapshot(attributes.size(), attributes.lastModifiedTime().to(TimeUnit.NANOSECONDS),
                        key == null ? null : key.toString());
            } catch (NoSuchFileException missing) {
                throw new CsvSourceException(path, record, line, "the file does not exist", missing);
            } catch (IOException unreadable) {
                throw new CsvSourceException(path, record, line, "the file cannot be read: "
                        + unreadable.getMessage(), unreadable);
            }
        }

        ObjectNode toJson() {
            ObjectNode json = JsonNodeFactory.instance.objectNode();
            json.put("size", size);
            json.put("mtime_ns", modifiedNanos);
            json.put("file_key", fileKey);
            return json;
        }
    }
}
