package io.localqueue.internal.bus;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * The canonical JSON the event bus hashes identities and payloads with, byte for byte what Python writes with
 * {@code json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)} in UTF-8, so
 * that a Java and a Python process sharing a file compute the same keys: keys sorted by code point (not by UTF-16
 * unit), integers in full, floats as Python spells them, and only quotes, backslashes and control characters
 * escaped.
 */
public final class CanonicalJson {

    private CanonicalJson() {
    }

    /**
     * Writes a JSON tree canonically.
     *
     * @param node the tree, as read from JSON: integers as integral nodes, other numbers as doubles
     * @return the canonical text
     * @throws IllegalArgumentException for a number that is not finite
     */
    public static String text(JsonNode node) {
        StringBuilder out = new StringBuilder();
        write(node, out);
        return out.toString();
    }

    /**
     * Hashes a JSON tree's canonical UTF-8 bytes.
     *
     * @param node the tree
     * @return the SHA-256 digest in lower-case hexadecimal, as Python's {@code hexdigest()}
     */
    public static String sha256(JsonNode node) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(digest.digest(text(node).getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException missing) {
            throw new IllegalStateException("this JVM has no SHA-256", missing);
        }
    }

    private static void write(JsonNode node, StringBuilder out) {
        if (node.isObject()) {
            List<Map.Entry<String, JsonNode>> fields = new ArrayList<>(node.properties());
            fields.sort((a, b) -> compareCodePoints(a.getKey(), b.getKey()));
            out.append('{');
            for (int i = 0; i < fields.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                string(fields.get(i).getKey(), out);
                out.append(':');
                write(fields.get(i).getValue(), out);
            }
            out.append('}');
        } else if (node.isArray()) {
            out.append('[');
            for (int i = 0; i < node.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                write(node.get(i), out);
            }
            out.append(']');
        } else if (node.isString()) {
            string(node.stringValue(), out);
        } else if (node.isIntegralNumber()) {
            out.append(node.bigIntegerValue());
        } else if (node.isNumber()) {
            out.append(PythonFloat.repr(node.doubleValue()));
        } else if (node.isBoolean()) {
            out.append(node.booleanValue());
        } else if (node.isNull()) {
            out.append("null");
        } else {
            throw new IllegalArgumentException("canonical JSON has no spelling for a " + node.getNodeType() + " node");
        }
    }

    private static void string(String value, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    /** Python's order of strings: by code point, where UTF-16 units would put U+10000 and up before U+E000. */
    private static int compareCodePoints(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }
}
