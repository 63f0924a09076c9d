package io.localqueue.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * How a command prints: a table a person reads, or with {@code --json} one JSON document whose field names stay
 * stable for scripts.
 */
final class Output {

    private static final JsonMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();
    private static final JsonMapper LINES = JsonMapper.builder().build();

    @Option(names = "--json", description = "Print one JSON document (stable field names) instead of a table.")
    boolean json;

    /** Prints rows as a table under {@code headers}, or {@code document} as JSON. */
    void print(PrintWriter out, Object document, List<String> headers, List<List<String>> rows) {
        if (json) {
            out.println(JSON.writeValueAsString(document));
        } else {
            out.print(table(headers, rows, true));
        }
        out.flush();
    }

    /** Prints {@code document} as JSON, or its fields one per line. */
    void print(PrintWriter out, Map<String, ?> document) {
        List<List<String>> rows = new ArrayList<>();
        document.forEach((name, value) -> rows.add(List.of(name, cell(value))));
        if (json) {
            out.println(JSON.writeValueAsString(document));
            out.flush();
        } else {
            out.print(table(null, rows, false));
            out.flush();
        }
    }

    /** Prints {@code document} as one line of JSON (JSON Lines, for a stream of records), or {@code line}. */
    void printLine(PrintWriter out, Object document, String line) {
        out.println(json ? LINES.writeValueAsString(document) : line);
        out.flush();
    }

    /** A table cell: "-" for nothing. */
    static String cell(@Nullable Object value) {
        return value == null ? "-" : String.valueOf(value);
    }

    /** Lays rows out in columns as wide as their widest cell, numbers aligned right when {@code alignNumbers}. */
    static String table(@Nullable List<String> headers, List<List<String>> rows, boolean alignNumbers) {
        List<List<String>> all = new ArrayList<>();
        if (headers != null) {
            all.add(headers);
        }
        all.addAll(rows);
        int columns = all.stream().mapToInt(List::size).max().orElse(0);
        int[] widths = new int[columns];
        for (List<String> row : all) {
            for (int i = 0; i < row.size(); i++) {
                widths[i] = Math.max(widths[i], row.get(i).length());
            }
        }
        StringBuilder text = new StringBuilder();
        for (List<String> row : all) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.size(); i++) {
                String cell = row.get(i);
                boolean number = alignNumbers && row != headers && cell.matches("-?[0-9][0-9,.]*");
                String padded = number ? " ".repeat(widths[i] - cell.length()) + cell
                        : cell + " ".repeat(widths[i] - cell.length());
                line.append(i == 0 ? "" : "  ").append(padded);
            }
            text.append(line.toString().stripTrailing()).append(System.lineSeparator());
        }
        return text.toString();
    }
}
