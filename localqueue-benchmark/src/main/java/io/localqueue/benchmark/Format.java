package io.localqueue.benchmark;

import java.util.Locale;

/**
 * Number spellings shared by scenario names and the Markdown report.
 */
final class Format {

    private Format() {
    }

    /**
     * Spells a count compactly for names: 500, 10k, 1m.
     *
     * @param count the count
     * @return the spelling
     */
    static String compact(long count) {
        if (count >= 1_000_000 && count % 1_000_000 == 0) {
            return count / 1_000_000 + "m";
        }
        if (count >= 1_000 && count % 1_000 == 0) {
            return count / 1_000 + "k";
        }
        return Long.toString(count);
    }

    /**
     * Spells a number with thousands separators and no decimals.
     *
     * @param value the number
     * @return such as {@code 12,345}
     */
    static String grouped(double value) {
        return String.format(Locale.ROOT, "%,.0f", value);
    }

    /**
     * Spells a ratio with two decimals.
     *
     * @param ratio the ratio
     * @return such as {@code 0.85×}
     */
    static String ratio(double ratio) {
        return String.format(Locale.ROOT, "%.2f×", ratio);
    }

    /**
     * Spells a duration given in nanoseconds in a readable unit: µs below 10 ms, ms above.
     *
     * @param nanos the duration
     * @return such as {@code 84.2 µs} or {@code 12.5 ms}
     */
    static String duration(long nanos) {
        if (Math.abs(nanos) < 10_000_000L) {
            return String.format(Locale.ROOT, "%.1f µs", nanos / 1e3);
        }
        return String.format(Locale.ROOT, "%.1f ms", nanos / 1e6);
    }

    /**
     * Spells a fraction as a percentage with two decimals.
     *
     * @param fraction the fraction
     * @return such as {@code 0.35 %}
     */
    static String percent(double fraction) {
        return String.format(Locale.ROOT, "%.2f %%", fraction * 100);
    }
}
