package io.localqueue.internal.bus;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import tools.jackson.core.io.NumberOutput;

/**
 * Python's {@code repr} of a float, which its {@code json} module writes: the shortest digits that read back as the
 * same double, in fixed notation from 1e-4 up to below 1e16 (always with a fraction, {@code 100.0}) and otherwise
 * as {@code 1e-05} or {@code 1.5e+16}.
 */
final class PythonFloat {

    private PythonFloat() {
    }

    /**
     * Spells a finite double as Python would.
     *
     * @param value the value
     * @return its spelling
     * @throws IllegalArgumentException for NaN and the infinities, which Python's canonical JSON refuses
     */
    static String repr(double value) {
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException("a canonical JSON number must be finite, got " + value);
        }
        String sign = (Double.doubleToRawLongBits(value) < 0) ? "-" : "";
        double magnitude = Math.abs(value);
        if (magnitude == 0) {
            return sign + "0.0";
        }
        // Jackson's writer gives the shortest digits that round-trip (Schubfach), which Java 17's own does not always.
        BigDecimal shortest = new BigDecimal(NumberOutput.toString(magnitude, true)).stripTrailingZeros();
        if (shortest.precision() == 2) {
            // Java's spelling keeps two digits where one reads back the same (4.9E-324 for 5e-324): take the one.
            BigDecimal one = shortest.round(new MathContext(1, RoundingMode.HALF_EVEN));
            if (one.doubleValue() == magnitude) {
                shortest = one.stripTrailingZeros();
            }
        }
        String digits = shortest.unscaledValue().toString();
        int point = digits.length() - shortest.scale(); // the value is 0.<digits> x 10^point
        if (point > -4 && point <= 16) {
            return sign + fixed(digits, point);
        }
        String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
        int exponent = point - 1;
        String exponentDigits = String.valueOf(Math.abs(exponent));
        return sign + mantissa + "e" + (exponent < 0 ? "-" : "+")
                + (exponentDigits.length() < 2 ? "0" + exponentDigits : exponentDigits);
    }

    private static String fixed(String digits, int point) {
        if (point <= 0) {
            return "0." + "0".repeat(-point) + digits;
        }
        if (point >= digits.length()) {
            return digits + "0".repeat(point - digits.length()) + ".0";
        }
        return digits.substring(0, point) + "." + digits.substring(point);
    }
}
