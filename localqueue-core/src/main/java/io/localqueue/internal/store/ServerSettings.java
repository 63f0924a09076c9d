package io.localqueue.internal.store;

import io.localqueue.InvalidArgumentException;
import java.util.Set;
import java.util.regex.Matcher;
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
                             int poolSize) implements StoreLocation {

    /** The schema of the layout when none is named. */
    public static final String DEFAULT_SCHEMA = "localqueue";

    /** The pool's size when none is named. */
    public static final int DEFAULT_POOL_SIZE = 10;

    /**
     * The smallest pool that serves a queue: a claim's write, a read and the wake-ups' listening connection at once.
     */
    public static final int MIN_POOL_SIZE = 3;

    /**
     * The longest schema name: PostgreSQL's identifiers hold 63 bytes, and the layout's notification channel is
     * {@code localqueue_} followed by the schema's name.
     */
    public static final int MAX_SCHEMA_LENGTH = 52;

    private static final Pattern USER_INFO = Pattern.compile("//[^/@\\s]*@");
    private static final Pattern QUERY = Pattern.compile("\\?(\\S*)");
    private static final Pattern SECRET = Pattern.compile("(?i)(ssl)?password=.*");

    private static final Pattern SCHEMA = Pattern.compile("[a-z_][a-z0-9_]{0," + (MAX_SCHEMA_LENGTH - 1) + "}");

    /**
     * PostgreSQL's reserved keywords and those that may name a type or function only ({@code pg_get_keywords()}
     * categories R and T, as of PostgreSQL 18): none of them can name a schema without quotes.
     */
    private static final Set<String> KEYWORDS = Set.of(("all analyse analyze and any array as asc asymmetric "
            + "authorization binary both case cast check collate collation column concurrently constraint create cross "
            + "current_catalog current_date current_role current_schema current_time current_timestamp current_user "
            + "default deferrable desc distinct do else end except false fetch for foreign freeze from full grant group "
            + "having ilike in initially inner intersect into is isnull join lateral leading left like limit localtime "
            + "localtimestamp natural not notnull null offset on only or order outer overlaps placing primary "
            + "references returning right select session_user similar some symmetric system_user table tablesample "
            + "then to trailing true union unique user using variadic verbose when where window with").split(" "));

    /**
     * Checks the settings.
     *
     * @throws IllegalArgumentException naming the setting that is wrong
     */
    public ServerSettings {
        if (url == null || url.isBlank()) {
            throw new InvalidArgumentException("url", "url must not be blank");
        }
        requireValidSchema(schema);
        requireValidPoolSize(poolSize);
    }

    /**
     * Checks a schema name: a lower-case identifier that needs no quoting in any statement and that PostgreSQL lets
     * a user create.
     *
     * @param schema the name
     * @return the name
     * @throws IllegalArgumentException when it is not a letter or '_' followed by letters, digits or '_', at most
     *                                  {@value #MAX_SCHEMA_LENGTH} in all, or it starts with {@code pg_}, or it is a
     *                                  reserved word of PostgreSQL
     */
    public static String requireValidSchema(@Nullable String schema) {
        if (schema == null || !SCHEMA.matcher(schema).matches()) {
            throw new InvalidArgumentException("schema", "schema must be a lower-case identifier: a letter or '_', then letters, "
                    + "digits or '_', at most " + MAX_SCHEMA_LENGTH + " in all (the notification channel localqueue_"
                    + "<schema> must fit PostgreSQL's 63); got " + (schema == null ? "null" : "'" + schema + "'"));
        }
        if (schema.startsWith("pg_")) {
            throw new InvalidArgumentException("schema", "schema must not start with 'pg_', which PostgreSQL keeps for its own "
                    + "schemas; got '" + schema + "'");
        }
        if (KEYWORDS.contains(schema)) {
            throw new InvalidArgumentException("schema", "schema must not be a reserved word of PostgreSQL, which would need "
                    + "quotes in every statement; got '" + schema + "' (try '" + schema + "_queues')");
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
            throw new InvalidArgumentException("poolSize", "poolSize must be at least " + MIN_POOL_SIZE
                    + " (a write, a read and the wake-ups' listening connection), got " + poolSize);
        }
        return poolSize;
    }

    /**
     * Returns a JDBC URL as logs, health and the actuator may show it: without the user information before the host
     * and without {@code password} or {@code sslpassword} parameters, whatever their case.
     *
     * @param url a JDBC URL, possibly followed by more text
     * @return the URL without credentials
     */
    public static String withoutCredentials(String url) {
        String text = USER_INFO.matcher(url).replaceFirst("//");
        Matcher query = QUERY.matcher(text);
        if (!query.find()) {
            return text;
        }
        StringBuilder kept = new StringBuilder();
        for (String parameter : query.group(1).split("&")) {
            if (!SECRET.matcher(parameter).matches()) {
                kept.append(kept.length() == 0 ? "" : "&").append(parameter);
            }
        }
        return text.substring(0, query.start()) + (kept.length() == 0 ? "" : "?" + kept) + text.substring(query.end());
    }

    @Override
    public String toString() {
        return "ServerSettings[url=" + url + ", username=" + username + ", password=" + (password == null ? null
                : "******") + ", schema=" + schema + ", poolSize=" + poolSize + "]";
    }
}
