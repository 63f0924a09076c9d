package io.localqueue.internal.store;

import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * How to reach a database server for a store that opens, and later closes, a connection pool of its own: the JDBC
 * URL, the credentials (which {@link #toString()} never shows), the schema of the layout and the pool's size. Two
 * equal settings name one database in this JVM, so their queues share one pool.
 *
 * @param url the JDBC URL
 * @param username the user, or null to take it from the URL
 * @param password the password, or null to take it from the URL
 * @param schema the layout's schema, a valid {@linkplain #requireValidSchema schema name}
 * @param poolSize the most connections the pool opens, at least {@value #MIN_POOL_SIZE}
 */
public record ServerSettings(String url, @Nullable String username, @Nullable String password, String schema,
                             int poolSize) {

    /** The schema of the layout when none is named. */
    public static final String DEFAULT_SCHEMA = "localqueue";

    /** The pool's size when none is named. */
    public static final int DEFAULT_POOL_SIZE = 10;

    /**
     * The smallest pool that serves a queue: a claim's write, a read and the wake-ups' listening connection at once.
     */
    public static final int MIN_POOL_SIZE = 3;

    private static final Pattern SCHEMA = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

    /**
     * Checks the settings.
     *
     * @throws IllegalArgumentException naming the setting that is wrong
     */
    public ServerSettings {
        if (url == null || url.isBlank()) {
            throw new IllegalArgumentException("url must not be blank");
        }
        requireValidSchema(schema);
        requireValidPoolSize(poolSize);
    }

    /**
     * Checks a schema name: a lower-case identifier, so that it needs no quoting in any statement.
     *
     * @param schema the name
     * @return the name
     * @throws IllegalArgumentException when it is not a letter or '_' followed by at most 62 letters, digits or '_'
     */
    public static String requireValidSchema(@Nullable String schema) {
        if (schema == null || !SCHEMA.matcher(schema).matches()) {
            throw new IllegalArgumentException("schema must be a lower-case identifier: a letter or '_', then letters, "
                    + "digits or '_', at most 63 in all; got " + (schema == null ? "null" : "'" + schema + "'"));
        }
        return schema;
    }

    /**
     * Checks a pool size.
     *
     * @param poolSize the size
     * @return the size
     * @throws IllegalArgumentException when below {@value #MIN_POOL_SIZE}
     */
    public static int requireValidPoolSize(int poolSize) {
        if (poolSize < MIN_POOL_SIZE) {
            throw new IllegalArgumentException("poolSize must be at least " + MIN_POOL_SIZE
                    + " (a write, a read and the wake-ups' listening connection), got " + poolSize);
        }
        return poolSize;
    }

    @Override
    public String toString() {
        return "ServerSettings[url=" + url + ", username=" + username + ", password=" + (password == null ? null
                : "******") + ", schema=" + schema + ", poolSize=" + poolSize + "]";
    }
}
