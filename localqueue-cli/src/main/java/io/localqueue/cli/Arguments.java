package io.localqueue.cli;

import io.localqueue.JobCursor;
import io.localqueue.JobState;
import io.localqueue.SimpleQueue;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/** Checks of option values that picocli's types do not make: each refusal is bad usage (exit 2) naming the option. */
final class Arguments {

    private static final Pattern SHORT_DURATION = Pattern.compile("([0-9]+)\\s*(ms|s|m|h|d)");

    private Arguments() {
    }

    /** A page size within the store's bounds. */
    static void page(CommandSpec spec, int limit) {
        if (limit < 1 || limit > SimpleQueue.MAX_PAGE) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--limit must be 1 to " + SimpleQueue.MAX_PAGE
                    + ", got " + limit);
        }
    }

    /** A cursor a page printed, or null. */
    static @Nullable JobCursor cursor(CommandSpec spec, @Nullable String text) {
        if (text == null) {
            return null;
        }
        try {
            return JobCursor.parse(text);
        } catch (IllegalArgumentException malformed) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--after takes a cursor a page printed "
                    + "(such as 0.1765000000000.42), got '" + text + "'");
        }
    }

    /**
     * Converts {@code 90s}, {@code 15m}, {@code 12h}, {@code 7d} or an ISO-8601 duration ({@code PT1H}); hand-written
     * because picocli has no duration type and the forms are few.
     */
    static final class DurationConverter implements CommandLine.ITypeConverter<Duration> {

        @Override
        public Duration convert(String value) {
            Matcher matcher = SHORT_DURATION.matcher(value.strip().toLowerCase(Locale.ROOT));
            Duration duration;
            if (matcher.matches()) {
                long amount = Long.parseLong(matcher.group(1));
                duration = switch (matcher.group(2)) {
                    case "ms" -> Duration.ofMillis(amount);
                    case "s" -> Duration.ofSeconds(amount);
                    case "m" -> Duration.ofMinutes(amount);
                    case "h" -> Duration.ofHours(amount);
                    default -> Duration.ofDays(amount);
                };
            } else {
                try {
                    duration = Duration.parse(value.strip());
                } catch (RuntimeException malformed) {
                    throw new CommandLine.TypeConversionException("a duration such as 90s, 15m, 12h, 7d or PT1H, got '"
                            + value + "'");
                }
            }
            if (duration.isNegative()) {
                throw new CommandLine.TypeConversionException("a duration that is not negative, got '" + value + "'");
            }
            return duration;
        }
    }

    /** A duration as a person writes it: {@code 7d}, {@code 12h}, {@code 15m}, {@code 90s} or {@code 250ms}. */
    static String words(Duration duration) {
        long millis = duration.toMillis();
        if (millis != 0 && millis % 86_400_000 == 0) {
            return millis / 86_400_000 + "d";
        }
        if (millis != 0 && millis % 3_600_000 == 0) {
            return millis / 3_600_000 + "h";
        }
        if (millis != 0 && millis % 60_000 == 0) {
            return millis / 60_000 + "m";
        }
        return millis % 1000 == 0 ? millis / 1000 + "s" : millis + "ms";
    }

    /** A job id: a whole number, named as such when it is not one. */
    static final class IdConverter implements CommandLine.ITypeConverter<Long> {

        @Override
        public Long convert(String value) {
            try {
                return Long.parseLong(value.strip());
            } catch (NumberFormatException notAnId) {
                throw new CommandLine.TypeConversionException(notAnId(value));
            }
        }
    }

    /** A job id among several on a command line, which picocli would report as an unmatched argument. */
    static long id(CommandSpec spec, String value) {
        try {
            return Long.parseLong(value.strip());
        } catch (NumberFormatException notAnId) {
            throw new CommandLine.ParameterException(spec.commandLine(), notAnId(value));
        }
    }

    private static String notAnId(String value) {
        return "'" + value + "' is not a job id (ids are whole numbers, as 'failed list' shows them)";
    }

    /** A state by its lower-case name. */
    static final class StateConverter implements CommandLine.ITypeConverter<JobState> {

        @Override
        public JobState convert(String value) {
            try {
                return JobState.valueOf(value.strip().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException unknown) {
                throw new CommandLine.TypeConversionException("'" + value + "' is not a state: ready, delayed, "
                        + "leased, failed or acked");
            }
        }
    }
}
