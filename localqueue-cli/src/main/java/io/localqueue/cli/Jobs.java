package io.localqueue.cli;

import io.localqueue.StoredJob;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** A stored job as a table row and under its JSON names, which stay stable for scripts. */
final class Jobs {

    /** The widest an error is printed in a table; {@code --json} and {@code failed show} print all of it. */
    private static final int ERROR_WIDTH = 60;

    static final List<String> HEADERS = List.of("ID", "STATE", "ATTEMPTS", "DUE", "UPDATED", "JOB_ID", "REASON",
            "LAST_ERROR");

    private Jobs() {
    }

    /** The job's fields by their JSON names; the payload only when {@code withPayload}. */
    static Map<String, @Nullable Object> fields(StoredJob<byte[]> job, boolean withPayload) {
        Map<String, @Nullable Object> fields = new LinkedHashMap<>();
        fields.put("id", job.id());
        fields.put("queue", job.queue());
        fields.put("jobId", job.jobId());
        fields.put("state", job.state().name().toLowerCase(java.util.Locale.ROOT));
        fields.put("attempts", job.attempts());
        fields.put("maxAttempts", job.maxAttempts());
        fields.put("priority", job.priority());
        fields.put("concurrencyKey", job.concurrencyKey());
        fields.put("dueAt", time(job.dueAt()));
        fields.put("leaseUntil", time(job.leaseUntil()));
        fields.put("createdAt", time(job.createdAt()));
        fields.put("updatedAt", time(job.updatedAt()));
        fields.put("failureReason", job.failureReason() == null ? null : job.failureReason().value());
        fields.put("lastError", job.lastError());
        if (withPayload) {
            fields.put("headers", job.headers());
            String text = utf8(job.rawPayload());
            fields.put("payloadEncoding", text != null ? "utf-8" : "base64");
            fields.put("payload", text != null ? text : Base64.getEncoder().encodeToString(job.rawPayload()));
        }
        fields.put("cursor", job.cursor().toString());
        return fields;
    }

    /** The job as a row under {@link #HEADERS}. */
    static List<String> row(StoredJob<byte[]> job) {
        String error = job.lastError() == null ? "-" : job.lastError().replaceAll("\\s+", " ");
        if (error.length() > ERROR_WIDTH) {
            error = error.substring(0, ERROR_WIDTH - 1) + "…";
        }
        return List.of(String.valueOf(job.id()), job.state().name().toLowerCase(java.util.Locale.ROOT),
                job.attempts() + "/" + job.maxAttempts(), Output.cell(time(job.dueAt())),
                Output.cell(time(job.updatedAt())), Output.cell(job.jobId()),
                job.failureReason() == null ? "-" : job.failureReason().value(), error);
    }

    /** An instant to the second, as scripts and people read it; null stays null. */
    static @Nullable String time(@Nullable Instant instant) {
        return instant == null ? null : instant.truncatedTo(ChronoUnit.SECONDS).toString();
    }

    private static @Nullable String utf8(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException notText) {
            return null;
        }
    }
}
