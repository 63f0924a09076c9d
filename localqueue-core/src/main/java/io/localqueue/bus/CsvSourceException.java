package io.localqueue.bus;

import io.localqueue.LocalQueueException;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/**
 * A CSV source cannot be read as declared: missing or empty file, no header, duplicate column names, a record with
 * the wrong number of fields, a blank line, malformed quoting, a cursor it never gave out, or a file that changed
 * while it was read. The message names the file, the data record (from 1) and the physical line.
 *
 * @since 0.1.0
 */
public class CsvSourceException extends LocalQueueException {

    private static final long serialVersionUID = 1L;

    private final transient Path path;
    private final long record;
    private final long line;

    /**
     * Creates the exception.
     *
     * @param path the file
     * @param record the data record (from 1), or 0 when none is concerned
     * @param line the physical line (from 1), or 0 when none is concerned
     * @param problem what is wrong
     * @param cause the parser's error, or null
     */
    public CsvSourceException(Path path, long record, long line, String problem, @Nullable Throwable cause) {
        super(path + (record > 0 ? ", record " + record : "") + (line > 0 ? ", line " + line : "") + ": " + problem,
                cause);
        this.path = path;
        this.record = record;
        this.line = line;
    }

    /**
     * Returns the file.
     *
     * @return the path
     */
    public Path path() {
        return path;
    }

    /**
     * Returns the data record concerned.
     *
     * @return the record, from 1, or 0
     */
    public long record() {
        return record;
    }

    /**
     * Returns the physical line concerned.
     *
     * @return the line, from 1, or 0
     */
    public long line() {
        return line;
    }
}
