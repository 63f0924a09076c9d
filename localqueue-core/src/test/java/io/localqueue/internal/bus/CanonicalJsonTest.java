package io.localqueue.internal.bus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Canonical JSON against what Python 3 writes for the same JSON: each expected text and digest below is the output
 * of {@code json.dumps(json.loads(input), sort_keys=True, separators=(",", ":"), ensure_ascii=False,
 * allow_nan=False)} and of {@code hashlib.sha256(that.encode("utf-8")).hexdigest()}.
 */
class CanonicalJsonTest {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    @Test
    void objectsAreSortedAtEveryDepth() {
        assertCanonical("{\"b\":1,\"a\":[true,false,null],\"c\":{\"y\":\"x\",\"x\":\"y\"}}",
                "{\"a\":[true,false,null],\"b\":1,\"c\":{\"x\":\"y\",\"y\":\"x\"}}",
                "1c3ffb98549bc0213552e4dd7aee1d606dbfc033bb084109a6c513eb090a3021");
    }

    @Test
    void keysAreSortedByCodePointNotByUtf16Unit() {
        // U+1D518 comes after U+FF5A by code point, but its first UTF-16 unit (U+D835) comes before
        assertCanonical("{\"z\":1,\"A\":2,\"\u00e9\":3,\"\uff5a\":4,\"\ud835\udd18\":5,\"a\":6}",
                "{\"A\":2,\"a\":6,\"z\":1,\"\u00e9\":3,\"\uff5a\":4,\"\ud835\udd18\":5}",
                "5764c998013db6e684aa3519d4141251fae09f9775aa39c0b0b1c257c801605b");
    }

    @Test
    void floatsAreSpelledAsPythonSpellsThem() {
        assertCanonical("[1e-7,1e16,1e15,0.1,1.5,-0.0,0.0,123456789.123,1e300,5e-324,2.5e-5,1e22,100.0,1e-4,1e-5,"
                        + "-2.5e+20,3.141592653589793,0.30000000000000004]",
                "[1e-07,1e+16,1000000000000000.0,0.1,1.5,-0.0,0.0,123456789.123,1e+300,5e-324,2.5e-05,1e+22,100.0,"
                        + "0.0001,1e-05,-2.5e+20,3.141592653589793,0.30000000000000004]",
                "a11877ee02ec2fb9b34393f8beba50e72d749272c10a566b82d47248e7901d86");
    }

    @Test
    void integersAreWrittenInFull() {
        assertCanonical("[12345678901234567890123,-9223372036854775809,0,-1,42]",
                "[12345678901234567890123,-9223372036854775809,0,-1,42]",
                "9415168db02324e2ec6a8bace29956389fb501678dc90c01e7b052b02b11388a");
    }

    @Test
    void onlyQuotesBackslashesAndControlCharactersAreEscaped() {
        assertCanonical("[\"q\\\"uote\",\"back\\\\slash\",\"ctl\\u0001\\u001f\\b\\f\\n\\r\\t\",\"del\\u007f\","
                        + "\"caf\\u00e9\",\"emoji \\ud83d\\ude00\",\"sep\\u2028\\u2029\",\"slash/\"]",
                "[\"q\\\"uote\",\"back\\\\slash\",\"ctl\\u0001\\u001f\\b\\f\\n\\r\\t\",\"del\u007f\",\"caf\u00e9\","
                        + "\"emoji \ud83d\ude00\",\"sep\u2028\u2029\",\"slash/\"]",
                "91a2ca1fad4c571475cb204abca56ef1784012e4ae5f23e9d014be7ffddaebb0");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "{\"event_schema\":\"user.creation-requested@1\",\"identity\":{\"importId\":\"2026-07\",\"externalId\":\"e-17\"}}"
                + "|44e43315258f397f1e0d8bfe9ae0727602a431d3f03163e4a3d1fa29cf5e0457",
        "{}|44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a",
        "[]|4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945",
        "\"just a string\"|3fe01def54b1c6cd795b2ebfcbab64150f6a507bce043040c662c682eebfed1e"
    })
    void digestsMatchPythonsHexdigest(String input, String sha256) {
        assertThat(CanonicalJson.sha256(MAPPER.readTree(input))).isEqualTo(sha256);
    }

    @Test
    void aNumberThatIsNotFiniteIsRefused() {
        assertThatThrownBy(() -> CanonicalJson.text(MAPPER.readTree("[1e400]")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("finite");
    }

    private static void assertCanonical(String input, String expected, String sha256) {
        JsonNode node = MAPPER.readTree(input);
        assertThat(CanonicalJson.text(node)).isEqualTo(expected);
        assertThat(CanonicalJson.sha256(node)).isEqualTo(sha256);
    }
}
