package io.localqueue;

import io.localqueue.internal.store.StoredText;
import java.util.Map;

/**
 * Checks the headers of a job on its way into a queue, so that what is stored reads back exactly as it was put.
 */
final class JobHeaders {

    private JobHeaders() {
    }

    /**
     * Returns {@code headers} when every name is non-empty, every value present, all of it well-formed UTF-16 and
     * at most {@link EnqueueItem#MAX_HEADERS_LENGTH} characters in all.
     *
     * @param headers the item's headers
     * @param parameter the parameter's name, for the message
     * @return {@code headers}
     * @throws IllegalArgumentException naming {@code parameter} and the header at fault
     */
    static Map<String, String> require(Map<String, String> headers, String parameter) {
        long length = 0;
        for (Map.Entry<String, String> header : headers.entrySet()) {
            String name = header.getKey();
            if (name == null || name.isEmpty()) {
                throw new IllegalArgumentException(parameter + " holds a header without a name");
            }
            String value = header.getValue();
            if (value == null) {
                throw new IllegalArgumentException(parameter + " holds no value for header '" + name + "'");
            }
            StoredText.requireWellFormed(name, parameter + " name '" + name + "'");
            StoredText.requireWellFormed(value, parameter + "['" + name + "']");
            length += name.length() + value.length();
        }
        if (length > EnqueueItem.MAX_HEADERS_LENGTH) {
            throw new IllegalArgumentException(parameter + " hold " + length + " characters, over the limit of "
                    + EnqueueItem.MAX_HEADERS_LENGTH);
        }
        return headers;
    }
}
