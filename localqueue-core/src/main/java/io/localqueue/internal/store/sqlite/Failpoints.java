package io.localqueue.internal.store.sqlite;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * Test-only places just before and just after each commit where a test can halt the process, as a crash would, or
 * make SQLite's next step fail with a chosen error. They exist only when the JVM starts with the system property
 * {@value #PROPERTY}, whose value is {@code on} or the failpoints to arm, as {@code transaction:stage:action}
 * separated by commas; without it every call here is a check of a constant that the JIT removes.
 *
 * <p>Actions: {@code halt} ends the JVM at once with exit status {@link #HALT_STATUS}, without shutdown hooks or
 * closing anything; {@code error=SQLITE_IOERR_WRITE} (any {@link SQLiteErrorCode} name) throws that SQLite error
 * once, then disarms.
 */
public final class Failpoints {

    /** The system property that enables failpoints and arms the ones it lists. */
    public static final String PROPERTY = "localqueue.failpoints";

    /** The exit status of a process halted by a failpoint. */
    public static final int HALT_STATUS = 86;

    private static final boolean ENABLED = System.getProperty(PROPERTY) != null;
    private static final Map<String, String> ARMED = new ConcurrentHashMap<>();

    static {
        if (ENABLED) {
            for (String spec : System.getProperty(PROPERTY).split(",")) {
                if (!spec.isBlank() && !spec.trim().equals("on")) {
                    arm(spec.trim());
                }
            }
        }
    }

    /** Where in a transaction a failpoint sits. */
    public enum Stage {
        /** After the transaction's statements ran, just before {@code COMMIT}. */
        BEFORE_COMMIT,
        /** Just after {@code COMMIT} returned, before the caller hears of it. */
        AFTER_COMMIT;

        String label() {
            return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        }
    }

    private Failpoints() {
    }

    /**
     * Arms one failpoint, as {@code transaction:stage:action}; only works when the process enabled failpoints.
     *
     * @param spec such as {@code enqueue:after-commit:halt} or {@code settle:before-commit:error=SQLITE_FULL}
     * @throws IllegalStateException when the JVM did not start with {@value #PROPERTY}
     * @throws IllegalArgumentException when the spec is malformed
     */
    public static void arm(String spec) {
        if (!ENABLED) {
            throw new IllegalStateException("failpoints need the JVM to start with -D" + PROPERTY);
        }
        String[] parts = spec.split(":", 3);
        if (parts.length != 3 || !(parts[2].equals("halt") || parts[2].startsWith("error="))) {
            throw new IllegalArgumentException("failpoint '" + spec + "' is not transaction:stage:action");
        }
        if (parts[2].startsWith("error=")) {
            SQLiteErrorCode.valueOf(parts[2].substring("error=".length()));
        }
        ARMED.put(parts[0] + ":" + parts[1], parts[2]);
    }

    /** Disarms every failpoint. */
    public static void disarmAll() {
        ARMED.clear();
    }

    /**
     * Passes the failpoint of {@code transaction} at {@code stage}: nothing happens unless a test armed it.
     *
     * @param transaction the transaction's name, such as {@code enqueue}
     * @param stage where
     * @throws SQLiteException the armed error
     */
    public static void reach(String transaction, Stage stage) throws SQLiteException {
        if (!ENABLED) {
            return;
        }
        String key = transaction + ":" + stage.label();
        String action = ARMED.get(key);
        if (action == null) {
            return;
        }
        if (action.equals("halt")) {
            Runtime.getRuntime().halt(HALT_STATUS);
        }
        if (ARMED.remove(key, action)) {
            SQLiteErrorCode code = SQLiteErrorCode.valueOf(action.substring("error=".length()));
            throw new SQLiteException("[" + code.name() + "] injected at " + key + " (" + code.message + ")", code);
        }
    }
}
