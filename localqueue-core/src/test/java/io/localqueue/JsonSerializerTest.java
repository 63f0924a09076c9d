package io.localqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonSerializerTest {

    record Email(String to, int priority, List<String> tags) {
    }

    private final JsonSerializer<Object> generic = JsonSerializer.generic();

    @Test
    void typedRecordRoundTrips() {
        JsonSerializer<Email> serializer = JsonSerializer.of(Email.class);
        Email email = new Email("hello@example.com", 2, List.of("welcome", "new"));

        assertThat(serializer.deserialize(serializer.serialize(email))).isEqualTo(email);
    }

    @Test
    void typedRecordIsWrittenAsAJsonObjectOfItsComponents() {
        byte[] bytes = JsonSerializer.of(Email.class).serialize(new Email("a@example.com", 1, List.of()));

        assertThat(generic.deserialize(bytes))
                .isEqualTo(Map.of("to", "a@example.com", "priority", 1, "tags", List.of()));
    }

    @Test
    void genericReadsObjectsAsMapsAndArraysAsLists() {
        Object value = generic.deserialize(utf8("{\"task\":\"x\",\"items\":[1,\"two\",false,null]}"));

        assertThat(value).isInstanceOf(Map.class);
        @SuppressWarnings("unchecked")
        Map<String, Object> map = (Map<String, Object>) value;
        assertThat(map.get("task")).isEqualTo("x");
        assertThat(map.get("items")).isInstanceOf(List.class);
        assertThat((List<Object>) map.get("items")).containsExactly(1, "two", false, null);
    }

    @Test
    void genericReadsScalars() {
        assertThat(generic.deserialize(utf8("\"x\""))).isEqualTo("x");
        assertThat(generic.deserialize(utf8("42"))).isInstanceOf(Number.class).isEqualTo(42);
        assertThat(generic.deserialize(utf8("1099511627776"))).isEqualTo(1099511627776L);
        assertThat(generic.deserialize(utf8("1.5"))).isEqualTo(1.5d);
        assertThat(generic.deserialize(utf8("true"))).isEqualTo(Boolean.TRUE);
        assertThat(generic.deserialize(utf8("null"))).isNull();
    }

    @Test
    void genericRoundTripsNestedValues() {
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("task", "resize");
        value.put("sizes", List.of(1, 2, 3));
        value.put("meta", Map.of("ok", true));

        assertThat(generic.deserialize(generic.serialize(value))).isEqualTo(value);
    }

    @Test
    void writesAnObjectAsPythonJsonDumpsDoes() {
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("task", "send/email");
        value.put("tags", List.of(1, 2.5, true));
        value.put("empty", Map.of());
        value.put("none", List.of());
        value.put("missing", null);

        // json.dumps({"task": "send/email", "tags": [1, 2.5, True], "empty": {}, "none": [], "missing": None})
        assertThat(generic.serialize(value)).isEqualTo(utf8(
                "{\"task\": \"send/email\", \"tags\": [1, 2.5, true], \"empty\": {}, \"none\": [], \"missing\": null}"));
    }

    @Test
    void writesScalarsAsPythonJsonDumpsDoes() {
        assertThat(generic.serialize("x")).isEqualTo(utf8("\"x\""));
        assertThat(generic.serialize(42)).isEqualTo(utf8("42"));
        assertThat(generic.serialize(true)).isEqualTo(utf8("true"));
        assertThat(generic.serialize(1.5)).isEqualTo(utf8("1.5"));
    }

    @Test
    void escapesNonAsciiTextAsPythonJsonDumpsDoes() {
        // json.dumps("café 😀") == '"caf\\u00e9 \\ud83d\\ude00"'
        assertThat(generic.serialize("caf\u00e9 \uD83D\uDE00")).isEqualTo(utf8("\"caf\\u00e9 \\ud83d\\ude00\""));
    }

    @Test
    void readsWhatPythonJsonDumpsWrites() {
        byte[] python = utf8("{\"task\": \"x\", \"n\": 1, \"ok\": true, \"tags\": [\"a\", \"b\"], \"none\": null}");

        @SuppressWarnings("unchecked")
        Map<String, Object> map = (Map<String, Object>) generic.deserialize(python);

        assertThat(map).containsEntry("task", "x").containsEntry("n", 1).containsEntry("ok", true)
                .containsEntry("tags", List.of("a", "b")).containsEntry("none", null).hasSize(5);
    }

    @Test
    void readsPythonAsciiEscapes() {
        assertThat(generic.deserialize(utf8("\"caf\\u00e9 \\ud83d\\ude00\""))).isEqualTo("café 😀");
    }

    @Test
    void invalidJsonCannotBeDeserialized() {
        assertThatThrownBy(() -> generic.deserialize(utf8("{\"task\": "))).isInstanceOf(RuntimeException.class);
    }

    @Test
    void identityIsSharedWithThePythonLibrary() {
        assertThat(generic.identity()).isEqualTo("localqueue.JsonSerializer");
        assertThat(JsonSerializer.of(Email.class).identity()).isEqualTo(JsonSerializer.IDENTITY);
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    record Tagged(String firstName, Map<String, List<Email>> byKind) {
    }

    @Test
    void aGenericTypeIsReadBackAsThatTypeAllTheWayDown() {
        java.lang.reflect.Type type = new tools.jackson.core.type.TypeReference<Map<String, List<Email>>>() { }
                .getType();
        JsonSerializer<Map<String, List<Email>>> typed = JsonSerializer.ofType(type,
                tools.jackson.databind.json.JsonMapper.builder().build());
        Map<String, List<Email>> value = Map.of("urgent", List.of(new Email("a@example.com", 1, List.of("x"))));

        Map<String, List<Email>> read = typed.deserialize(typed.serialize(value));

        assertThat(read).isEqualTo(value);
        assertThat(read.get("urgent").get(0)).isInstanceOf(Email.class);
    }

    @Test
    void aTypeVariableOrNullIsRefusedByName() {
        java.lang.reflect.Type variable = List.class.getTypeParameters()[0];
        tools.jackson.databind.json.JsonMapper mapper = tools.jackson.databind.json.JsonMapper.builder().build();

        assertThatThrownBy(() -> JsonSerializer.ofType(variable, mapper)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("type variable");
        assertThatThrownBy(() -> JsonSerializer.ofType(null, mapper)).hasMessageContaining("type");
        assertThatThrownBy(() -> JsonSerializer.ofType(String.class, null)).hasMessageContaining("mapper");
    }

    @Test
    void anApplicationMapperWithPythonSpellingKeepsItsNamingAndWritesPythonsBytes() {
        tools.jackson.databind.json.JsonMapper application = tools.jackson.databind.json.JsonMapper.builder()
                .propertyNamingStrategy(tools.jackson.databind.PropertyNamingStrategies.SNAKE_CASE).build();
        JsonSerializer<Tagged> spelled = JsonSerializer.of(Tagged.class,
                JsonSerializer.withPythonSpelling(application));

        byte[] written = spelled.serialize(new Tagged("Zo\u00eb", Map.of()));

        // json.dumps({"first_name": "Zoë", "by_kind": {}})
        assertThat(written).isEqualTo(utf8("{\"first_name\": \"Zo\\u00eb\", \"by_kind\": {}}"));
        assertThat(spelled.deserialize(written).firstName()).isEqualTo("Zo\u00eb");
    }
}
