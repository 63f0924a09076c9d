package io.localqueue.spring;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The configuration reference in the guide must list every property the build's metadata declares, with the same
 * default.
 */
class ConfigurationReferenceTest {

    private static final Path GUIDE = Path.of("..", "docs", "spring-boot.md");
    private static final Pattern ROW = Pattern.compile("^\\| `([a-z0-9.<>\\-]+)` \\| ([^|]+) \\|", Pattern.MULTILINE);

    @Test
    void everyPropertyInTheMetadataIsDocumentedWithItsDefault() throws IOException {
        Map<String, String> documented = documentedDefaults();
        Map<String, String> declared = declaredDefaults();

        assertThat(declared).isNotEmpty();
        assertThat(documented.keySet()).containsAll(declared.keySet());
        declared.forEach((name, value) -> {
            if (!value.isEmpty()) {
                assertThat(documented.get(name)).as("documented default of %s", name)
                        .containsIgnoringCase(value);
            }
        });
    }

    @Test
    void everyDocumentedPropertyExists() throws IOException {
        Map<String, String> declared = declaredDefaults();
        List<String> perQueue = List.of("localqueue.queues.<name>.max-pending-jobs",
                "localqueue.queues.<name>.delivery.lease", "localqueue.queues.<name>.delivery.max-retries",
                "localqueue.queues.<name>.producer.max-wait", "localqueue.queues.<name>.delivery.backoff.initial-delay",
                "localqueue.queues.<name>.delivery.backoff.multiplier",
                "localqueue.queues.<name>.delivery.backoff.max-delay",
                "localqueue.queues.<name>.delivery.backoff.jitter", "localqueue.queues.<name>.retention.acked",
                "localqueue.queues.<name>.retention.failed", "localqueue.queues.<name>.max-concurrent",
                "localqueue.queues.<name>.max-concurrent-per-key", "localqueue.queues.<name>.rate-limit.permits",
                "localqueue.queues.<name>.rate-limit.period", "localqueue.queues.<name>.concurrency-key",
                "localqueue.recurring.<id>.cron", "localqueue.recurring.<id>.zone",
                "localqueue.recurring.<id>.enabled", "localqueue.bus.topology.<subscription>",
                "localqueue.bus.subscriptions.<subscription>.concurrency",
                "localqueue.bus.subscriptions.<subscription>.prefetch",
                "localqueue.bus.subscriptions.<subscription>.handler-timeout",
                "localqueue.bus.subscriptions.<subscription>.retry.type",
                "localqueue.bus.subscriptions.<subscription>.retry.max-attempts",
                "localqueue.bus.subscriptions.<subscription>.retry.delay",
                "localqueue.bus.subscriptions.<subscription>.retry.initial-delay",
                "localqueue.bus.subscriptions.<subscription>.retry.multiplier",
                "localqueue.bus.subscriptions.<subscription>.retry.max-delay",
                "localqueue.bus.subscriptions.<subscription>.retry.jitter");

        for (String name : documentedDefaults().keySet()) {
            assertThat(declared.containsKey(name) || perQueue.contains(name)).as("%s is a real property", name)
                    .isTrue();
        }
    }

    private static Map<String, String> documentedDefaults() throws IOException {
        String guide = Files.readString(GUIDE);
        int start = guide.indexOf("## Configuration reference");
        assertThat(start).as("the guide's configuration reference section").isNotNegative();
        int end = guide.indexOf("\n#", start + 1);
        guide = guide.substring(start, end < 0 ? guide.length() : end);
        Map<String, String> rows = new LinkedHashMap<>();
        Matcher matcher = ROW.matcher(guide);
        while (matcher.find()) {
            if (matcher.group(1).startsWith("localqueue.") || matcher.group(1).startsWith("management.health.")) {
                rows.put(matcher.group(1), matcher.group(2).trim());
            }
        }
        return rows;
    }

    private static Map<String, String> declaredDefaults() throws IOException {
        Map<String, String> defaults = new LinkedHashMap<>();
        List<JsonNode> properties = new ArrayList<>();
        try (InputStream metadata = ConfigurationReferenceTest.class
                .getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            assertThat(metadata).as("generated configuration metadata").isNotNull();
            JsonMapper.builder().build().readTree(metadata).get("properties").forEach(properties::add);
        }
        for (JsonNode property : properties) {
            String name = property.get("name").asString();
            if ((name.startsWith("localqueue.") && !name.equals("localqueue.queues")
                    && !name.equals("localqueue.recurring"))
                    || name.equals("management.health.localqueue.enabled")) {
                JsonNode value = property.get("defaultValue");
                defaults.put(name, value == null || value.isNull() ? "" : value.asString());
            }
        }
        return defaults;
    }
}
