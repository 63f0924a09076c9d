package io.localqueue.benchmark;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes {@code report.json} and {@code report.md} into an output directory, each atomically (a reader never sees
 * half a report).
 */
public final class ReportWriter {

    /** The JSON report's file name. */
    public static final String JSON = "report.json";

    /** The Markdown report's file name. */
    public static final String MARKDOWN = "report.md";

    private static final JsonMapper MAPPER = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    private ReportWriter() {
    }

    /**
     * Writes both reports.
     *
     * @param report the report
     * @param directory the output directory, created when missing
     * @throws IOException when a file cannot be written
     */
    public static void write(Report report, Path directory) throws IOException {
        Files.createDirectories(directory);
        writeAtomically(directory.resolve(JSON), MAPPER.writeValueAsString(report) + "\n");
        writeAtomically(directory.resolve(MARKDOWN), MarkdownRenderer.render(report));
    }

    /**
     * Returns the mapper reports are written with, for readers of {@code report.json}.
     *
     * @return the mapper
     */
    public static JsonMapper mapper() {
        return MAPPER;
    }

    private static void writeAtomically(Path target, String content) throws IOException {
        Path temporary = target.resolveSibling(target.getFileName() + ".tmp");
        Files.writeString(temporary, content, StandardCharsets.UTF_8);
        Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
