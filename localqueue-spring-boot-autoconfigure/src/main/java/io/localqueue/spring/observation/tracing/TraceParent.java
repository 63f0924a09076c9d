package io.localqueue.spring.observation.tracing;

import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.Tracer;
import org.jspecify.annotations.Nullable;

/**
 * Reads a W3C {@code traceparent} header ({@code version-traceid-parentid-flags}, all lower-case hex) into the span
 * context it names, so that a span can link to it without becoming its child.
 */
final class TraceParent {

    /** The header's name. */
    static final String HEADER = "traceparent";

    private static final int LENGTH = 55;

    private TraceParent() {
    }

    /**
     * Returns the span context {@code value} names, or null when it is missing or not a valid {@code traceparent}
     * (an unknown version's extra fields after the fourth are ignored, as the W3C recommendation asks).
     */
    static @Nullable TraceContext parse(@Nullable String value, Tracer tracer) {
        if (value == null || value.length() < LENGTH || (value.length() > LENGTH && value.charAt(LENGTH) != '-')) {
            return null;
        }
        String version = value.substring(0, 2);
        String traceId = value.substring(3, 35);
        String spanId = value.substring(36, 52);
        String flags = value.substring(53, 55);
        boolean dashes = value.charAt(2) == '-' && value.charAt(35) == '-' && value.charAt(52) == '-';
        if (!dashes || !isHex(version) || version.equals("ff") || (version.equals("00") && value.length() != LENGTH)
                || !isHex(traceId) || isZero(traceId) || !isHex(spanId) || isZero(spanId) || !isHex(flags)) {
            return null;
        }
        boolean sampled = (Integer.parseInt(flags, 16) & 1) == 1;
        return tracer.traceContextBuilder().traceId(traceId).spanId(spanId).sampled(sampled).build();
    }

    private static boolean isHex(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!(c >= '0' && c <= '9') && !(c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }

    private static boolean isZero(String hex) {
        return hex.chars().allMatch(c -> c == '0');
    }
}
