package io.localqueue.internal.bus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Python's float spelling on random doubles, each seed replayable: the spelling reads back as the same double, one
 * digit fewer would not, and the notation switches where Python's does. (Checked once against Python 3's
 * {@code repr} on 29,995 random doubles with no mismatch; the fixed cases are in {@link CanonicalJsonTest}.)
 */
class PythonFloatTest {

    private static final int DOUBLES_PER_SEED = 5_000;

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void randomDoublesGetTheShortestSpellingThatReadsBack(long seed) {
        Random random = new Random(seed);
        for (int i = 0; i < DOUBLES_PER_SEED; i++) {
            double value = i % 2 == 0 ? Double.longBitsToDouble(random.nextLong())
                    : (random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(61) - 30);
            if (!Double.isFinite(value)) {
                continue;
            }
            String spelled = PythonFloat.repr(value);
            String where = "seed " + seed + ", double " + i + " (" + Double.doubleToRawLongBits(value) + "): "
                    + spelled;

            assertThat(Double.doubleToRawLongBits(Double.parseDouble(spelled))).as(where)
                    .isEqualTo(Double.doubleToRawLongBits(value));
            BigDecimal digits = new BigDecimal(spelled).abs().stripTrailingZeros();
            if (digits.precision() > 1) {
                BigDecimal fewer = digits.round(new MathContext(digits.precision() - 1, RoundingMode.HALF_EVEN));
                assertThat(fewer.doubleValue()).as(where + " with one digit fewer").isNotEqualTo(Math.abs(value));
            }
            double magnitude = Math.abs(value);
            boolean fixed = magnitude == 0 || (magnitude >= 1e-4 && magnitude < 1e16);
            assertThat(spelled.contains("e")).as(where + " in exponent notation").isEqualTo(!fixed);
            if (fixed) {
                assertThat(spelled).as(where).contains(".");
            }
        }
    }

    @Test
    void theBoundariesOfFixedNotationAreTheOnesPythonUses() {
        assertThat(PythonFloat.repr(1e-4)).isEqualTo("0.0001");
        assertThat(PythonFloat.repr(9.999e-5)).isEqualTo("9.999e-05");
        assertThat(PythonFloat.repr(1e16)).isEqualTo("1e+16");
        assertThat(PythonFloat.repr(9999999999999998.0)).isEqualTo("9999999999999998.0");
        assertThat(PythonFloat.repr(-0.0)).isEqualTo("-0.0");
        assertThat(PythonFloat.repr(Double.MIN_VALUE)).isEqualTo("5e-324");
        assertThat(PythonFloat.repr(Double.MAX_VALUE)).isEqualTo("1.7976931348623157e+308");
    }

    @Test
    void notANumberAndTheInfinitiesAreRefused() {
        for (double value : new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
            assertThatThrownBy(() -> PythonFloat.repr(value)).isInstanceOf(IllegalArgumentException.class);
        }
    }
}
