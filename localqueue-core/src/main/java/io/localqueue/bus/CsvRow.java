package io.localqueue.bus;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One data record of a {@link CsvSource}: its values by column name, immutable, with the record's number (data
 * records from 1, the header not counted) and the physical line it ended on.
 *
 * @since 0.1.0
 */
public final class CsvRow {

    private final Map<String, String> values;
    private final long recordNumber;
    private final long lineNumber;

    CsvRow(List<String> columns, List<String> values, long recordNumber, long lineNumber) {
        Map<String, String> byColumn = new LinkedHashMap<>();
        for (int i = 0; i < columns.size(); i++) {
            byColumn.put(columns.get(i), values.get(i));
        }
        this.values = Collections.unmodifiableMap(byColumn);
        this.recordNumber = recordNumber;
        this.lineNumber = lineNumber;
    }

    /**
     * Returns a column's value; an empty field is the empty string, never null.
     *
     * @param column the column's name
     * @return the value
     * @throws IllegalArgumentException when the source has no such column
     */
    public String get(String column) {
        String value = values.get(column);
        if (value == null) {
            throw new IllegalArgumentException("no column '" + column + "' in record " + recordNumber
                    + "; columns: " + values.keySet());
        }
        return value;
    }

    /**
     * Returns the values by column name, in the columns' order.
     *
     * @return an unmodifiable map
     */
    public Map<String, String> asMap() {
        return values;
    }

    /**
     * Returns the record's number among the data records.
     *
     * @return from 1
     */
    public long recordNumber() {
        return recordNumber;
    }

    /**
     * Returns the physical line the record ended on (a quoted field may span lines).
     *
     * @return from 1
     */
    public long lineNumber() {
        return lineNumber;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof CsvRow that && values.equals(that.values) && recordNumber == that.recordNumber
                && lineNumber == that.lineNumber;
    }

    @Override
    public int hashCode() {
        return values.hashCode() * 31 + Long.hashCode(recordNumber);
    }

    @Override
    public String toString() {
        return "CsvRow[" + recordNumber + " (line " + lineNumber + "): " + values + "]";
    }
}
