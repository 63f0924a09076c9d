package io.localqueue.dashboard;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The default redaction: the value of every object field or header whose name looks secret is replaced by
 * {@value #MASK}, at any depth. A name looks secret when, lower-cased with {@code -} and {@code _} removed, it contains
 * one of {@link #SECRET_WORDS} or one of the configured extra words ({@code localqueue.dashboard.redacted-keys}).
 *
 * @since 0.1.0
 */
public class SecretKeyRedactor implements DashboardRedactor {

    /** What a masked value reads. */
    public static final String MASK = "******";

    /** The words a secret-looking name contains, lower case, without separators. */
    public static final List<String> SECRET_WORDS = List.of("password", "passwd", "pwd", "secret", "token", "apikey",
            "authorization", "credential", "privatekey", "cookie", "session", "ssn", "cardnumber", "cvv", "iban",
            "signature");

    private final List<String> words;

    /**
     * Creates the redaction of the secret-looking names and of the given extra words.
     *
     * @param extraWords more words a masked name may contain, case and separators ignored
     * @since 0.1.0
     */
    public SecretKeyRedactor(List<String> extraWords) {
        List<String> all = new ArrayList<>(SECRET_WORDS);
        for (String word : extraWords) {
            String normal = normal(word);
            if (normal.isEmpty()) {
                throw new IllegalArgumentException("a redacted key must have a letter or digit, got '" + word + "'");
            }
            all.add(normal);
        }
        this.words = List.copyOf(all);
    }

    /**
     * Tells whether a field or header of this name is masked.
     *
     * @param name the name
     * @return true when it looks secret
     * @since 0.1.0
     */
    public boolean isSecret(String name) {
        String normal = normal(name);
        for (String word : words) {
            if (normal.contains(word)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public JsonNode redactPayload(String queue, JsonNode payload) {
        mask(payload);
        return payload;
    }

    @Override
    public String redactHeader(String queue, String name, String value) {
        return isSecret(name) ? MASK : value;
    }

    private void mask(JsonNode node) {
        if (node instanceof ObjectNode object) {
            for (Map.Entry<String, JsonNode> field : List.copyOf(object.properties())) {
                if (isSecret(field.getKey()) && !field.getValue().isNull()) {
                    object.put(field.getKey(), MASK);
                } else {
                    mask(field.getValue());
                }
            }
        } else if (node instanceof ArrayNode array) {
            for (JsonNode element : array) {
                mask(element);
            }
        }
    }

    private static String normal(String name) {
        StringBuilder normal = new StringBuilder(name.length());
        for (char c : name.toLowerCase(Locale.ROOT).toCharArray()) {
            if (Character.isLetterOrDigit(c)) {
                normal.append(c);
            }
        }
        return normal.toString();
    }
}
