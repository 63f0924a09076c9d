package io.localqueue.bus;

import io.localqueue.InvalidArgumentException;
import io.localqueue.internal.bus.CanonicalJson;
import io.localqueue.internal.csv.CsvFields;
import io.localqueue.internal.csv.CsvParserDependency;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A CSV file as a resumable source of {@link CsvRow}s, parsed strictly by Apache Commons CSV: a header (or given
 * column names), the same number of fields in every record, no blank lines. Its cursor is the byte offset after a
 * record, so resuming is one seek, however far into the file; the file must not change while a checkpoint follows
 * it, and a change between runs (size, modification time or file identity) changes the fingerprint, which a
 * checkpoint refuses, unless the fingerprint is the caller's own.
 *
 * <pre>{@code
 * import io.localqueue.bus.CsvSource;
 * import java.nio.file.Path;
 *
 * CsvSource users = CsvSource.builder(Path.of("users.csv")).delimiter(';').build();
 * }</pre>
 *
 * @since 0.1.0
 */
public final class CsvSource implements ResumableSource<CsvRow> {

    /** The field conventions of a CSV file, named as Python's {@code csv} module names them. */
    public enum Dialect {
        /** Comma-separated, double quotes doubled inside quoted fields: what spreadsheets write. */
        EXCEL(','),
        /** As {@link #EXCEL}, separated by tabs. */
        EXCEL_TAB('\t'),
        /** As {@link #EXCEL}; Unix line ends make no difference when reading. */
        UNIX(',');

        private final char delimiter;

        Dialect(char delimiter) {
            this.delimiter = delimiter;
        }
    }

    private final Path path;
    private final Charset charset;
    private final char delimiter;
    private final @Nullable Character quote;
    private final @Nullable Character escape;
    private final @Nullable List<String> header;
    private final @Nullable String externalFingerprint;
    private final CsvFile file;

    private CsvSource(Builder builder) {
        this.path = builder.path;
        this.charset = builder.charset;
        this.delimiter = builder.delimiter;
        this.quote = builder.quote;
        this.escape = builder.escape;
        this.header = builder.header;
        this.externalFingerprint = builder.fingerprint;
        this.file = new CsvFile(path, charset, header, new CsvFields(delimiter, quote, escape),
                CsvFile.Snapshot.of(path, 0, 0));
    }

    /**
     * Returns a source over a UTF-8 file (a leading byte-order mark skipped) in the {@link Dialect#EXCEL} dialect
     * whose first record is the header.
     *
     * @param path the file, which must exist
     * @return the source
     * @throws CsvSourceException when the file is missing or unreadable
     */
    public static CsvSource of(Path path) {
        return builder(path).build();
    }

    /**
     * Starts configuring a source over a file.
     *
     * @param path the file
     * @return the builder
     * @throws IllegalArgumentException when null
     */
    public static Builder builder(Path path) {
        if (path == null) {
            throw new InvalidArgumentException("path", "path must not be null");
        }
        return new Builder(path);
    }

    /**
     * Returns the fingerprint: a SHA-256 over the file's size, modification time and identity and the parser's
     * settings, or over the caller's fingerprint and the settings when one was given.
     *
     * @return the fingerprint, never null
     */
    @Override
    public String fingerprint() {
        ObjectNode config = JsonNodeFactory.instance.objectNode();
        config.put("parser", "commons-csv");
        config.put("encoding", charset.name());
        ObjectNode dialect = config.putObject("format");
        dialect.put("delimiter", String.valueOf(delimiter));
        dialect.put("quote", quote == null ? null : String.valueOf(quote));
        dialect.put("escape", escape == null ? null : String.valueOf(escape));
        if (header == null) {
            config.putNull("header");
        } else {
            header.forEach(config.putArray("header")::add);
        }
        ObjectNode hashed = JsonNodeFactory.instance.objectNode();
        if (externalFingerprint != null) {
            hashed.put("external", externalFingerprint);
        } else {
            hashed.set("snapshot", file.snapshot().toJson());
        }
        hashed.set("config", config);
        return CanonicalJson.sha256(hashed);
    }

    /**
     * Opens the file after the record whose cursor is given, with one seek.
     *
     * @param cursor a cursor this source gave out, or null for the start
     * @return the reader
     * @throws CsvSourceException when the cursor is malformed or the file changed since this source was made
     */
    @Override
    public SourceReader<CsvRow> open(@Nullable String cursor) {
        CsvCursor start = cursor == null || cursor.isEmpty() ? null : CsvCursor.parse(path, cursor);
        return new CsvRecords(file, start);
    }

    /**
     * Returns the file.
     *
     * @return the path
     */
    public Path path() {
        return path;
    }

    @Override
    public String toString() {
        return "CsvSource[" + path + "]";
    }

    /**
     * Configures a {@link CsvSource}; every setter validates at once and names the bad parameter.
     *
     * @since 0.1.0
     */
    public static final class Builder {

        private final Path path;
        private Charset charset = StandardCharsets.UTF_8;
        private char delimiter = ',';
        private @Nullable Character quote = '"';
        private @Nullable Character escape;
        private @Nullable List<String> header;
        private @Nullable String fingerprint;

        private Builder(Path path) {
            this.path = path;
        }

        /**
         * Sets the delimiter, the quote and the escape of a dialect.
         *
         * @param dialect the dialect
         * @return this builder
         * @throws IllegalArgumentException when null
         */
        public Builder dialect(Dialect dialect) {
            if (dialect == null) {
                throw new InvalidArgumentException("dialect", "dialect must not be null");
            }
            this.delimiter = dialect.delimiter;
            this.quote = '"';
            this.escape = null;
            return this;
        }

        /**
         * Sets the character between fields.
         *
         * @param delimiter a character other than a line break, the quote or the escape
         * @return this builder
         * @throws IllegalArgumentException when it is a line break
         */
        public Builder delimiter(char delimiter) {
            requireNotLineBreak(delimiter, "delimiter");
            this.delimiter = delimiter;
            return this;
        }

        /**
         * Sets the character that quotes fields (doubled inside them), or none.
         *
         * @param quote the quote, or null for none
         * @return this builder
         * @throws IllegalArgumentException when it is a line break
         */
        public Builder quote(@Nullable Character quote) {
            if (quote != null) {
                requireNotLineBreak(quote, "quote");
            }
            this.quote = quote;
            return this;
        }

        /**
         * Sets the character that escapes the next one, or none (the default).
         *
         * @param escape the escape, or null for none
         * @return this builder
         * @throws IllegalArgumentException when it is a line break
         */
        public Builder escape(@Nullable Character escape) {
            if (escape != null) {
                requireNotLineBreak(escape, "escape");
            }
            this.escape = escape;
            return this;
        }

        /**
         * Sets the file's encoding; a leading UTF-8 byte-order mark is skipped in any case.
         *
         * @param charset an encoding in which a line break is the single byte it is in ASCII (UTF-8, ISO-8859-1…)
         * @return this builder
         * @throws IllegalArgumentException when null or not ASCII-compatible at line breaks
         */
        public Builder charset(Charset charset) {
            if (charset == null) {
                throw new InvalidArgumentException("charset", "charset must not be null");
            }
            if (!Arrays.equals("\n\r".getBytes(charset), new byte[] {'\n', '\r'})) {
                throw new IllegalArgumentException("charset " + charset + " does not write a line break as one byte;"
                        + " give an ASCII-compatible encoding such as UTF-8");
            }
            this.charset = charset;
            return this;
        }

        /**
         * Gives the column names, for a file without a header line.
         *
         * @param columns the names, unique and not empty
         * @return this builder
         * @throws IllegalArgumentException when empty, or a name is null or repeated
         */
        public Builder header(List<String> columns) {
            if (columns == null || columns.isEmpty()) {
                throw new InvalidArgumentException("header", "header must name at least one column");
            }
            Set<String> unique = new LinkedHashSet<>();
            for (String column : columns) {
                if (column == null || !unique.add(column)) {
                    throw new InvalidArgumentException("header", "header must name each column once, not null: " + columns);
                }
            }
            this.header = List.copyOf(columns);
            return this;
        }

        /**
         * Gives a fingerprint of the caller's (a content hash, a version): the file's size and time are then left
         * out, so changes between runs go unnoticed, while a change during a run is still refused.
         *
         * @param fingerprint the fingerprint
         * @return this builder
         * @throws IllegalArgumentException when null or blank
         */
        public Builder fingerprint(String fingerprint) {
            if (fingerprint == null || fingerprint.isBlank()) {
                throw new InvalidArgumentException("fingerprint", "fingerprint must not be blank");
            }
            this.fingerprint = fingerprint;
            return this;
        }

        /**
         * Makes the source, reading the file's size, time and identity now.
         *
         * @return the source
         * @throws IllegalArgumentException when delimiter, quote and escape are not distinct
         * @throws CsvSourceException when the file is missing or unreadable
         */
        public CsvSource build() {
            if (Objects.equals(quote, delimiter) || Objects.equals(escape, delimiter)
                    || (quote != null && Objects.equals(quote, escape))) {
                throw new IllegalArgumentException("delimiter, quote and escape must be distinct characters");
            }
            CsvParserDependency.require("CsvSource");
            return new CsvSource(this);
        }

        private static void requireNotLineBreak(char character, String parameter) {
            if (character == '\n' || character == '\r') {
                throw new InvalidArgumentException(parameter, parameter + " must not be a line break");
            }
        }
    }
}
