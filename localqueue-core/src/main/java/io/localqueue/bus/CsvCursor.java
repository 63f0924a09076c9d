package io.localqueue.bus;

import java.nio.file.Path;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Where a {@link CsvSource} stands after a record: the byte offset of the next record, and the numbers of the last
 * data record and physical line read, kept as JSON {@code {"version":1,"offset":…,"record":…,"line":…}}.
 *
 * @param offset the byte offset of the next record
 * @param record data records read so far
 * @param line physical lines read so far
 */
record CsvCursor(long offset, long record, long line) {

    private static final int VERSION = 1;
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /**
     * Reads a cursor this source gave out.
     *
     * @throws CsvSourceException when the text is not such a cursor
     */
    static CsvCursor parse(Path path, String text) {
        JsonNode json;
        try {
            json = JSON.readTree(text);
        } catch (JacksonException malformed) {
            throw new CsvSourceException(path, 0, 0, "malformed cursor '" + text + "'", malformed);
        }
        if (json == null || !json.isObject() || !json.path("version").isIntegralNumber()) {
            throw new CsvSourceException(path, 0, 0, "malformed cursor '" + text + "'", null);
        }
        if (json.get("version").asInt() != VERSION) {
            throw new CsvSourceException(path, 0, 0, "cursor version " + json.get("version") + " is unknown; this "
                    + "version reads version " + VERSION, null);
        }
        JsonNode offset = json.get("offset");
        JsonNode record = json.get("record");
        JsonNode line = json.get("line");
        if (offset == null || record == null || line == null || !offset.isIntegralNumber()
                || !record.isIntegralNumber() || !line.isIntegralNumber() || offset.asLong() < 0
                || record.asLong() < 0 || line.asLong() < 0) {
            throw new CsvSourceException(path, 0, 0, "malformed cursor '" + text + "'", null);
        }
        return new CsvCursor(offset.asLong(), record.asLong(), line.asLong());
    }

    @Override
    public String toString() {
        return "{\"version\":" + VERSION + ",\"offset\":" + offset + ",\"record\":" + record + ",\"line\":" + line
                + "}";
    }
}
