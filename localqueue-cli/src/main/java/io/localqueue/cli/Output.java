package io.localqueue.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * How a command prints: a table a person reads, or with {@code --json} one JSON document whose field names stay
 * stable for scripts.
 */
final class Output {

    private static final JsonMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    @Option(names = "--json", description = "Print one JSON document (stable field names) instead of a table.")
    boolean json;

    /** Prints rows as a table under {@code headers}, or {@code document} as JSON. */
    void print(PrintWriter out, Object document, List<String> headers, List<List<String>> rows) {
        if (json) {
            out.println(JSON.writeValueAsString(document));
        } else {
            out.print(table(headers, rows));
        }
        out.flush();
    }

    /** Prints {@code document} as JSON, or its fields one per line. */
    void print(PrintWriter out, Map<String, ?> document) {
        List<List<String>> rows = new ArrayList<>();
        document.forEach((name, value) -> rows.add(List.of(name, value == null ? "-" : String.valueOf(value))));
        if (json) {
            out.println(JSON.writeValueAsString(document));
            out.flush();
        } else {
            out.print(table(null, rows));
            out.flush();
        }
    }

    /** Lays rows out in columns as wide as their widest cell, numbers aligned right. */
    static String table(List<String> headers, List<List<String>> rows) {
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
                boolean number = row != headers && cell.matches("-?[0-9][0-9,.]*");
                String padded = number ? " ".repeat(widths[i] - cell.length()) + cell
                        : cell + " ".repeat(widths[i] - cell.length());
                line.append(i == 0 ? "" : "  ").append(padded);
            }
            text.append(line.toString().stripTrailing()).append(System.lineSeparator());
        }
        return text.toString();
    }
}
