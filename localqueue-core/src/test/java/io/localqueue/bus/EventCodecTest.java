package io.localqueue.bus;

import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.JsonSerializer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The envelope's fast reading gives what the full reading gives, for what either library writes. */
class EventCodecTest {

    @BusEvent(name = "user.created")
    record UserCreated(String userId, int age) {
    }

    private final EventRegistry registry = new EventRegistry();
    private final EventCodec codec = new EventCodec(JsonSerializer.defaultMapper(), registry);

    @Test
    void whatTheBusWritesIsReadInOnePass() {
        registry.register(UserCreated.class);
        UUID id = UUID.randomUUID();
        EventMetadata metadata = new EventMetadata(id, UUID.randomUUID(), UUID.randomUUID(),
                Instant.parse("2026-07-25T10:15:30.123456Z"));
        for (int i = 0; i < 2; i++) {
            byte[] envelope = codec.encode(new UserCreated("u-" + i, i), metadata).envelope();

            EventCodec.Decoded fast = codec.decodeInOnePass(envelope);

            assertThat(fast).as("envelope %d read in one pass", i).isNotNull();
            assertThat(fast.event()).isEqualTo(new UserCreated("u-" + i, i));
            assertThat(fast.metadata()).isEqualTo(metadata);
            assertThat(codec.decode(envelope)).isEqualTo(fast);
        }
    }

    @Test
    void whatPythonWritesIsReadInOnePassToo() {
        registry.register(UserCreated.class);
        byte[] python = ("{\"event_id\": \"0b7e6a52-5c1d-4f2e-9a3b-1c2d3e4f5a6b\", \"correlation_id\": "
                + "\"0b7e6a52-5c1d-4f2e-9a3b-1c2d3e4f5a6b\", \"causation_id\": null, \"event_type\": \"user.created\", "
                + "\"event_schema\": \"user.created@1\", \"event_created_at\": \"2025-07-25T00:15:00.250000+00:00\", "
                + "\"payload\": {\"userId\": \"u-7\", \"age\": 7}}").getBytes(StandardCharsets.UTF_8);

        EventCodec.Decoded fast = codec.decodeInOnePass(python);

        assertThat(fast).isNotNull();
        assertThat(fast.event()).isEqualTo(new UserCreated("u-7", 7));
        assertThat(fast.metadata().createdAt()).isEqualTo(Instant.parse("2025-07-25T00:15:00.25Z"));
    }

    @Test
    void aPayloadBeforeItsTypeOrAnUnknownTypeIsLeftToTheFullReading() {
        byte[] payloadFirst = ("{\"payload\": {\"userId\": \"u\", \"age\": 1}, \"event_type\": \"user.created\", "
                + "\"event_id\": \"0b7e6a52-5c1d-4f2e-9a3b-1c2d3e4f5a6b\", "
                + "\"event_created_at\": \"2025-07-25T00:15:00+00:00\"}").getBytes(StandardCharsets.UTF_8);
        registry.register(UserCreated.class);

        assertThat(codec.decodeInOnePass(payloadFirst)).isNull();
        assertThat(codec.decode(payloadFirst).event()).isEqualTo(new UserCreated("u", 1));
    }
}
