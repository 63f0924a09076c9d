package io.localqueue.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Every property of the dashboard is in the table of {@code docs/dashboard.md} with its default, and no other. */
class DashboardConfigurationReferenceTest {

    private static final Path GUIDE = Path.of("..", "docs", "dashboard.md");
    private static final Path METADATA = Path.of("target", "classes", "META-INF", "spring-configuration-metadata.json");
    private static final Pattern ROW = Pattern.compile("^\\| `(localqueue\\.dashboard\\.[a-z\\-]+)` \\| ([^|]+) \\|",
            Pattern.MULTILINE);

    @Test
    void everyPropertyIsDocumentedWithItsDefaultAndEveryDocumentedOneExists() throws IOException {
        Map<String, String> documented = new LinkedHashMap<>();
        Matcher rows = ROW.matcher(Files.readString(GUIDE));
        while (rows.find()) {
            documented.put(rows.group(1), rows.group(2).trim());
        }
        Map<String, String> declared = new LinkedHashMap<>();
        for (JsonNode property : JsonMapper.builder().build().readTree(METADATA.toFile()).get("properties")) {
            JsonNode value = property.get("defaultValue");
            declared.put(property.get("name").asString(), value == null || value.isNull() ? ""
                    : value.isString() ? value.asString() : value.toString());
        }

        assertThat(declared).isNotEmpty();
        assertThat(documented.keySet()).containsExactlyInAnyOrderElementsOf(declared.keySet());
        declared.forEach((name, value) -> {
            if (!value.isEmpty() && !value.equals("[]")) {
                assertThat(documented.get(name)).as("documented default of %s", name).contains(value);
            }
        });
    }
}
