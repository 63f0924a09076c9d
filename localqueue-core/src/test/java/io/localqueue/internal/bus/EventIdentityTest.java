package io.localqueue.internal.bus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** Identity keys and fingerprints as Python's bus computes them; the expected digests come from Python 3. */
class EventIdentityTest {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();
    private static final String SCHEMA = "user.creation-requested@1";

    @Test
    void theKeyAndTheFingerprintAreThePythonBussOwn() {
        ObjectNode payload = payload("{\"importId\":\"2026-07\",\"externalId\":\"e-17\",\"name\":\"Zo\u00eb\","
                + "\"score\":1.5e-7}");

        assertThat(EventIdentity.key(SCHEMA, payload, List.of("importId", "externalId"))).isEqualTo(
                "event-identity:v1:44e43315258f397f1e0d8bfe9ae0727602a431d3f03163e4a3d1fa29cf5e0457");
        assertThat(EventIdentity.fingerprint(SCHEMA, payload)).isEqualTo(
                "event-payload:v1:86d2dca009757924674b338c358cb038c51d859222b4ba0f85626c4715ced221");
    }

    @Test
    void theOrderOfTheIdentityFieldsDoesNotMatterButTheSchemaDoes() {
        ObjectNode payload = payload("{\"importId\":\"2026-07\",\"externalId\":\"e-17\"}");

        assertThat(EventIdentity.key(SCHEMA, payload, List.of("externalId", "importId")))
                .isEqualTo(EventIdentity.key(SCHEMA, payload, List.of("importId", "externalId")));
        assertThat(EventIdentity.key("user.creation-requested@2", payload, List.of("importId")))
                .isNotEqualTo(EventIdentity.key(SCHEMA, payload, List.of("importId")));
    }

    @Test
    void theSameIdentityWithAnotherPayloadKeepsItsKeyAndChangesItsFingerprint() {
        ObjectNode first = payload("{\"externalId\":\"e-17\",\"name\":\"Ada\"}");
        ObjectNode second = payload("{\"externalId\":\"e-17\",\"name\":\"Grace\"}");

        assertThat(EventIdentity.key(SCHEMA, first, List.of("externalId")))
                .isEqualTo(EventIdentity.key(SCHEMA, second, List.of("externalId")));
        assertThat(EventIdentity.fingerprint(SCHEMA, first)).isNotEqualTo(EventIdentity.fingerprint(SCHEMA, second));
    }

    @ParameterizedTest
    @ValueSource(strings = {"{}", "{\"externalId\":null}", "{\"externalId\":\"\"}", "{\"externalId\":\" \\t\"}",
        "{\"externalId\":\"\\u00a0\"}"})
    void anIdentityFieldWithoutAValueIsRefusedByName(String json) {
        assertThatThrownBy(() -> EventIdentity.key(SCHEMA, payload(json), List.of("externalId")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'externalId'");
    }

    @Test
    void aNumberThatIsNotFiniteIsRefused() {
        assertThatThrownBy(() -> EventIdentity.key(SCHEMA, payload("{\"externalId\":1e400}"), List.of("externalId")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("finite");
    }

    private static ObjectNode payload(String json) {
        return (ObjectNode) MAPPER.readTree(json);
    }
}
