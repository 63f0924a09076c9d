package io.localqueue.internal.csv;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import org.jspecify.annotations.Nullable;

/**
 * Splits the text of one CSV record (one or more physical lines) into its fields, strictly as RFC 4180 with the
 * given delimiter, quote and escape: empty lines, surrounding spaces and trimming are not forgiven. Check
 * {@link CsvParserDependency#require} before making one.
 */
public final class CsvFields {

    private static final String UNFINISHED_QUOTE = "EOF reached before encapsulated token finished";

    private final CSVFormat format;

    /**
     * Makes a parser of one dialect.
     *
     * @param delimiter the field separator
     * @param quote the quote character, or null for none
     * @param escape the escape character, or null for none
     */
    public CsvFields(char delimiter, @Nullable Character quote, @Nullable Character escape) {
        this.format = CSVFormat.RFC4180.builder()
                .setDelimiter(delimiter)
                .setQuote(quote)
                .setEscape(escape)
                .setIgnoreEmptyLines(false)
                .setIgnoreSurroundingSpaces(false)
                .setTrim(false)
                .get();
    }

    /**
     * Parses the text of one record.
     *
     * @param text the record's lines, line breaks included
     * @return the fields; null when a quoted field is still open at the end of the text, so that the record takes
     *         the next line too
     * @throws IllegalArgumentException when the text is malformed or holds more than one record; the message says
     *                                  how
     */
    public @Nullable List<String> parse(String text) {
        try (CSVParser parser = CSVParser.parse(text, format)) {
            List<CSVRecord> parsed = parser.getRecords();
            if (parsed.size() != 1) {
                throw new IllegalArgumentException("the lines hold " + parsed.size() + " records");
            }
            List<String> fields = new ArrayList<>(parsed.get(0).size());
            parsed.get(0).forEach(fields::add);
            return fields;
        } catch (IOException | UncheckedIOException malformed) {
            String message = malformed.getMessage();
            if (message != null && message.contains(UNFINISHED_QUOTE)) {
                return null;
            }
            throw new IllegalArgumentException(message, malformed);
        } catch (IllegalStateException malformed) {
            throw new IllegalArgumentException(malformed.getMessage(), malformed);
        }
    }
}
