package io.localqueue.bus;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Reads the records of a CSV source's file from a byte offset on: physical lines are read as bytes (so the offset after
 * each record is exact, whatever the encoding spends per character), and the lines of one record are handed to
 * Commons CSV, which parses the fields; a quoted field that runs on takes the next line too.
 */
final class CsvRecords implements SourceReader<CsvRow> {

    private static final byte[] UTF8_BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};

    private final CsvFile source;
    private final Path path;
    private final FileChannel channel;
    private final LineInput lines;
    private final List<String> columns;
    private long record;
    private long line;
    private @Nullable SourceRecord<CsvRow> next;
    private boolean finished;

    CsvRecords(CsvFile source, @Nullable CsvCursor start) {
        this.source = source;
        this.path = source.path();
        source.requireUnchanged(0, 0);
        try {
            this.channel = FileChannel.open(path, StandardOpenOption.READ);
        } catch (NoSuchFileException missing) {
            throw new CsvSourceException(path, 0, 0, "the file does not exist", missing);
        } catch (IOException unreadable) {
            throw new CsvSourceException(path, 0, 0, "the file cannot be opened: " + unreadable.getMessage(),
                    unreadable);
        }
        try {
            this.lines = new LineInput(channel, path);
            lines.skip(UTF8_BOM);
            List<String> header = source.header();
            this.columns = header != null ? header : readHeader();
            if (start != null) {
                if (start.offset() > channel.size()) {
                    throw new CsvSourceException(path, start.record(), start.line(), "the cursor's offset "
                            + start.offset() + " lies beyond the end of the file", null);
                }
                lines.seek(start.offset());
                record = start.record();
                line = start.line();
            }
        } catch (IOException | RuntimeException failure) {
            closeQuietly();
            if (failure instanceof IOException io) {
                throw new CsvSourceException(path, record, line, "reading failed: " + io.getMessage(), io);
            }
            throw (RuntimeException) failure;
        }
    }

    @Override
    public boolean hasNext() {
        if (next == null && !finished) {
            next = read();
        }
        return next != null;
    }

    @Override
    public SourceRecord<CsvRow> next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        SourceRecord<CsvRow> taken = next;
        next = null;
        return taken;
    }

    @Override
    public void close() {
        finished = true;
        closeQuietly();
    }

    private @Nullable SourceRecord<CsvRow> read() {
        List<String> fields = readFields(record + 1);
        if (fields == null) {
            finished = true;
            source.requireUnchanged(record, line);
            return null;
        }
        record++;
        if (fields.size() != columns.size()) {
            throw new CsvSourceException(path, record, line, "expected " + columns.size() + " fields "
                    + columns + ", got " + fields.size(), null);
        }
        CsvRow row = new CsvRow(columns, fields, record, line);
        return new SourceRecord<>(row, new CsvCursor(lines.position(), record, line).toString());
    }

    private List<String> readHeader() throws IOException {
        List<String> header = readFields(0);
        if (header == null) {
            throw new CsvSourceException(path, 0, 0, "the file is empty: a header line is required (or give the "
                    + "columns with header(…))", null);
        }
        Set<String> unique = new HashSet<>();
        for (String column : header) {
            if (!unique.add(column)) {
                throw new CsvSourceException(path, 0, line, "the header names column '" + column + "' twice", null);
            }
        }
        return List.copyOf(header);
    }

    /** The fields of the next record, or null at the end of the file. */
    private @Nullable List<String> readFields(long recordNumber) {
        StringBuilder text = new StringBuilder();
        long firstLine = line + 1;
        while (true) {
            byte[] raw;
            try {
                raw = lines.next();
            } catch (IOException failure) {
                throw new CsvSourceException(path, recordNumber, line, "reading failed: " + failure.getMessage(),
                        failure);
            }
            if (raw == null) {
                if (text.length() == 0) {
                    return null;
                }
                throw new CsvSourceException(path, recordNumber, line, "malformed CSV: a quoted field of the "
                        + "record that starts on line " + firstLine + " is not closed before the end of the file", null);
            }
            line++;
            String physical = new String(raw, source.charset());
            if (text.length() == 0 && physical.strip().isEmpty() && isLineBreakOnly(physical)) {
                throw new CsvSourceException(path, recordNumber, line, "blank line", null);
            }
            text.append(physical);
            List<String> fields;
            try {
                fields = source.fields().parse(text.toString());
            } catch (IllegalArgumentException malformed) {
                throw new CsvSourceException(path, recordNumber, line, "malformed CSV: " + malformed.getMessage(),
                        malformed);
            }
            if (fields != null) {
                return fields;
            }
        }
    }

    private static boolean isLineBreakOnly(String physical) {
        return physical.equals("\n") || physical.equals("\r\n") || physical.equals("\r");
    }

    private void closeQuietly() {
        try {
            channel.close();
        } catch (IOException ignored) {
            // reading is over; nothing was written
        }
    }

    /** Physical lines of a file channel, read through one buffer, with the byte offset after the last one. */
    private static final class LineInput {
        private final FileChannel channel;
        private final ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
        private long bufferStart;
        private boolean eof;

        LineInput(FileChannel channel, Path path) {
            this.channel = channel;
            buffer.limit(0);
        }

        long position() {
            return bufferStart + buffer.position();
        }

        void seek(long offset) throws IOException {
            channel.position(offset);
            bufferStart = offset;
            buffer.clear().limit(0);
            eof = false;
        }

        /** Skips a prefix when the file starts with it. */
        void skip(byte[] prefix) throws IOException {
            fill();
            if (buffer.remaining() >= prefix.length) {
                for (int i = 0; i < prefix.length; i++) {
                    if (buffer.get(buffer.position() + i) != prefix[i]) {
                        return;
                    }
                }
                buffer.position(buffer.position() + prefix.length);
            }
        }

        /** The next line with its line break, or null at the end of the file. */
        byte @Nullable [] next() throws IOException {
            java.io.ByteArrayOutputStream line = null;
            while (true) {
                if (!buffer.hasRemaining()) {
                    fill();
                    if (!buffer.hasRemaining()) {
                        return line == null ? null : line.toByteArray();
                    }
                }
                int start = buffer.position();
                int end = start;
                while (end < buffer.limit() && buffer.get(end) != '\n') {
                    end++;
                }
                boolean complete = end < buffer.limit();
                int length = (complete ? end + 1 : end) - start;
                byte[] chunk = new byte[length];
                buffer.get(chunk);
                if (complete && line == null) {
                    return chunk;
                }
                if (line == null) {
                    line = new java.io.ByteArrayOutputStream(length * 2);
                }
                line.write(chunk);
                if (complete) {
                    return line.toByteArray();
                }
            }
        }

        private void fill() throws IOException {
            if (eof) {
                return;
            }
            bufferStart += buffer.position();
            buffer.compact();
            int read = channel.read(buffer);
            buffer.flip();
            if (read < 0) {
                eof = true;
            }
        }
    }
}
