package io.localqueue.dashboard;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.StringNode;

/**
 * What the page shows of stored payload bytes: JSON parsed and passed through the redaction, other UTF-8 text passed
 * through it as a text node, anything else only as its size; whatever the serializer of the queue, the page shows only
 * what the redaction returns.
 */
final class PayloadView {

    /** The longest preview a list shows of one payload, in characters. */
    static final int PREVIEW_CHARS = 160;

    private final JsonMapper json;
    private final DashboardRedactor redactor;

    PayloadView(JsonMapper json, DashboardRedactor redactor) {
        this.json = json;
        this.redactor = redactor;
    }

    /** The redacted payload, pretty-printed, or a note saying why it is not shown. */
    String full(String queue, byte[] payload) {
        JsonNode shown = redacted(queue, payload);
        if (shown == null) {
            return binary(payload);
        }
        return shown.isString() ? shown.asString() : json.writerWithDefaultPrettyPrinter().writeValueAsString(shown);
    }

    /** The start of the redacted payload on one line. */
    String preview(String queue, byte[] payload) {
        return preview(redacted(queue, payload), payload);
    }

    /**
     * The start of an event-bus delivery's event on one line: the {@code payload} of its stored envelope, after the
     * redaction saw the whole envelope, so the event shows before the envelope's ids.
     */
    String eventPreview(String queue, byte[] envelope) {
        JsonNode shown = redacted(queue, envelope);
        JsonNode event = shown == null ? null : shown.get("payload");
        return preview(event != null ? event : shown, envelope);
    }

    private String preview(@Nullable JsonNode shown, byte[] payload) {
        String text = shown == null ? binary(payload) : shown.isString() ? shown.asString() : json.writeValueAsString(shown);
        text = text.replace('\n', ' ');
        return text.length() <= PREVIEW_CHARS ? text : text.substring(0, PREVIEW_CHARS - 1) + "…";
    }

    /** A header's value as the redaction lets it be shown. */
    String header(String queue, String name, String value) {
        return redactor.redactHeader(queue, name, value);
    }

    private @Nullable JsonNode redacted(String queue, byte[] payload) {
        JsonNode read;
        try {
            read = json.readTree(payload);
        } catch (JacksonException notJson) {
            String text = utf8(payload);
            if (text == null) {
                return null;
            }
            read = StringNode.valueOf(text);
        }
        return read == null ? null : redactor.redactPayload(queue, read);
    }

    private static String binary(byte[] payload) {
        return "(" + payload.length + " bytes that are not text: not shown)";
    }

    private static @Nullable String utf8(byte[] payload) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(payload)).toString();
        } catch (CharacterCodingException notText) {
            return null;
        }
    }
}
