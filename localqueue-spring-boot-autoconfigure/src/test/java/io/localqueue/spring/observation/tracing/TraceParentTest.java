package io.localqueue.spring.observation.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.test.simple.SimpleTracer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** A {@code traceparent} header read as the W3C Trace Context recommendation reads it. */
class TraceParentTest {

    private static final String TRACE_ID = "0af7651916cd43dd8448eb211c80319c";
    private static final String SPAN_ID = "b7ad6b7169203331";

    private final SimpleTracer tracer = new SimpleTracer();

    @Test
    void aValidHeaderNamesItsTraceSpanAndSampling() {
        TraceContext sampled = TraceParent.parse("00-" + TRACE_ID + "-" + SPAN_ID + "-01", tracer);
        TraceContext notSampled = TraceParent.parse("00-" + TRACE_ID + "-" + SPAN_ID + "-00", tracer);

        assertThat(sampled).isNotNull();
        assertThat(sampled.traceId()).isEqualTo(TRACE_ID);
        assertThat(sampled.spanId()).isEqualTo(SPAN_ID);
        assertThat(sampled.sampled()).isTrue();
        assertThat(notSampled).isNotNull();
        assertThat(notSampled.sampled()).isFalse();
    }

    @Test
    void aLaterVersionIsReadByItsFirstFourFields() {
        TraceContext context = TraceParent.parse("01-" + TRACE_ID + "-" + SPAN_ID + "-03-what-comes-next", tracer);

        assertThat(context).isNotNull();
        assertThat(context.spanId()).isEqualTo(SPAN_ID);
        assertThat(context.sampled()).isTrue();
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", "00-" + TRACE_ID + "-" + SPAN_ID + "-0", "00-" + TRACE_ID + "-" + SPAN_ID + "-01-extra",
            "ff-" + TRACE_ID + "-" + SPAN_ID + "-01", "00-" + TRACE_ID + "-" + "0000000000000000" + "-01",
            "00-00000000000000000000000000000000-" + SPAN_ID + "-01", "00-0AF7651916CD43DD8448EB211C80319C-"
            + SPAN_ID + "-01", "00_" + TRACE_ID + "-" + SPAN_ID + "-01", "00-" + TRACE_ID + "-" + SPAN_ID + "-0g",
            "01-" + TRACE_ID + "-" + SPAN_ID + "-01x"})
    void anythingElseNamesNoSpan(String value) {
        assertThat(TraceParent.parse(value, tracer)).isNull();
    }
}
