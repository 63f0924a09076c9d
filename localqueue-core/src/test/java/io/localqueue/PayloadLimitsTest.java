package io.localqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.json.JsonMapper;

/** What {@code put} accepts, {@code get} returns; what it cannot return, {@code put} refuses, naming the problem. */
class PayloadLimitsTest extends QueueTestBase {

    static Stream<Named<Object>> awkwardButValid() {
        List<Object> deep = new ArrayList<>();
        List<Object> level = deep;
        for (int i = 0; i < 400; i++) {
            List<Object> inner = new ArrayList<>();
            level.add(inner);
            level = inner;
        }
        return Stream.of(
                Named.of("a 1,500-digit number", new BigInteger("7".repeat(1_500))),
                Named.of("a 60,000-character key", Map.of("k".repeat(60_000), 1)),
                Named.of("a 5,000,000-character string", "s".repeat(5_000_000)),
                Named.of("a lone surrogate in a string value", Map.of("v", "x\uD800y")),
                Named.of("nesting 400 deep", deep),
                Named.of("a key beyond the BMP", Map.of("\uD83D\uDE00", "\uD83D\uDE01")),
                Named.of("NUL and control characters", Map.of("a\u0000b", "\u0001\u001f")));
    }

    @ParameterizedTest
    @MethodSource("awkwardButValid")
    void whatPutAcceptsGetReturns(Object payload) {
        SimpleQueue<Object> queue = open(SimpleQueue.builder(database()));

        queue.put(payload);
        Job<Object> job = queue.getNowait();

        assertThat(normalized(job.data())).isEqualTo(normalized(payload));
        assertThat(queue.stats().failed()).isZero();
    }

    @Test
    void aPropertyNameWithALoneSurrogateIsRefusedAtPut() {
        SimpleQueue<Object> queue = open(SimpleQueue.builder(database()));

        assertThatThrownBy(() -> queue.put(Map.of("k\uD800", 1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("data cannot be serialized")
                .hasMessageContaining("could not be read back");
        assertThat(queue.stats().total()).isZero();
    }

    @Test
    void aPayloadOverTheLimitIsRefusedWithoutWritingItAll() {
        SimpleQueue<Object> queue = open(SimpleQueue.builder(database()));
        String huge = "h".repeat(Serializer.MAX_PAYLOAD_BYTES + 1);

        assertThatThrownBy(() -> queue.put(huge))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("exceeds " + Serializer.MAX_PAYLOAD_BYTES + " bytes");
        assertThat(queue.stats().total()).isZero();
    }

    @Test
    void aPayloadOfAnySerializerOverTheLimitIsRefused() {
        SimpleQueue<byte[]> queue = open(SimpleQueue.builder(database(), new RawBytesSerializer()));

        assertThatThrownBy(() -> queue.put(new byte[Serializer.MAX_PAYLOAD_BYTES + 1]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("over the limit of " + Serializer.MAX_PAYLOAD_BYTES + " bytes");
        queue.put(new byte[Serializer.MAX_PAYLOAD_BYTES]);
        assertThat(queue.getNowait().data()).hasSize(Serializer.MAX_PAYLOAD_BYTES);
    }

    @Test
    void anApplicationMapperWithTighterReadLimitsRefusesAtPutWhatItCouldNotRead() {
        JsonMapper strict = JsonMapper.builder(JsonFactory.builder()
                .streamReadConstraints(StreamReadConstraints.builder().maxNumberLength(10).build()).build()).build();
        SimpleQueue<Object> queue = open(SimpleQueue.builder(database(), JsonSerializer.of(Object.class, strict)));

        assertThatThrownBy(() -> queue.put(new BigInteger("1".repeat(11))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Number value length (11) exceeds the maximum allowed (10");
        assertThat(queue.put(new BigInteger("1".repeat(10)))).isPositive();
    }

    /** JSON numbers come back as the smallest fitting type, so compare through their text. */
    private static Object normalized(Object value) {
        return value instanceof Number ? value.toString() : value;
    }
}
