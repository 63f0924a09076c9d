package io.localqueue.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every statement the library runs is a string constant, with user data (queue names, job ids, payloads, errors)
 * only in bound parameters. This reads the sources: a call that runs SQL given as anything but a literal or a
 * constant must be listed here, with the reason its text cannot carry user data.
 */
class BoundParametersTest {

    private static final Path SOURCES = Path.of("src/main/java");

    /** Calls that run SQL (JDBC's and the library's own Session). */
    private static final Pattern SQL_CALL = Pattern.compile(
            "\\.(execute|executeUpdate|executeQuery|prepareStatement|update|query|queryLong|batch|control)\\(\\s*([^,)]*)");

    private static final Pattern SQL_WORD = Pattern.compile("\\b(SELECT|UPDATE|INSERT|DELETE|WHERE|PRAGMA|VALUES)\\b");

    private static final Pattern LITERAL_OR_CONSTANT = Pattern.compile("\"[^\"]*\"|[A-Z][A-Z0-9_]*|");

    /** Non-constant SQL, by file and argument, with why no user data can reach it. */
    private static final Map<String, String> REVIEWED = Map.ofEntries(
            Map.entry("Writer.java: sql", "the only caller passes the constant \"VACUUM\""),
            Map.entry("Writer.java: \"PRAGMA synchronous = \" + mode.synchronousLevel(", "an enum's fixed level"),
            Map.entry("Writer.java: \"PRAGMA wal_autocheckpoint = \" + WAL_AUTOCHECKPOINT_PAGES", "a constant"),
            Map.entry("Writer.java: \"PRAGMA cache_size = -\" + CACHE_KIB", "a constant"),
            Map.entry("Session.java: sql", "Session runs what the store's constants hand it"),
            Map.entry("SnapshotStatements.java: \"PRAGMA \" + name", "called with literal pragma names only"),
            Map.entry("LeaseStatements.java: sql", "one of the class's own constants"),
            Map.entry("EnqueueStatements.java: INSERT_ROWS[size]",
                    "multi-row inserts built once from literal text and row numbers; every value is bound"),
            Map.entry("EnqueueStatements.java: INSERT_ROWS_RETURNING_ID[size]",
                    "the same multi-row inserts with a literal RETURNING id; every value is bound"),
            Map.entry("MaintenanceStatements.java: PURGE + BusExecutionRows.notHeldByAnExecution(session",
                    "two constants: the purge and an optional constant clause"),
            Map.entry("MaintenanceStatements.java: DELETE_ONE + BusExecutionRows.notHeldByAnExecution(session",
                    "two constants: the deletion of one row and an optional constant clause"),
            Map.entry("JobStatements.java: sql",
                    "the class's page and count constants, formatted with its own constant conditions; every value "
                            + "is bound"),
            Map.entry("RetentionStatements.java: sql",
                    "the batch delete, built from the class's constants and an optional constant clause"),
            Map.entry("ReadStatements.java: prioritized ? LIST_READY_BY_PRIORITY : LIST_READY",
                    "one of the class's two page constants"),
            Map.entry("SqliteSchema.java: \"ALTER TABLE messages ADD COLUMN \" + column",
                    "column definitions from the constant LOCAL_COLUMNS"),
            Map.entry("IntegrityStatements.java: sql", "the class's own PRAGMA constants"),
            Map.entry("SqliteSchema.java: \"ALTER TABLE messages ADD COLUMN \" + column + \" TEXT\"",
                    "column names from the constant ADDED_COLUMNS"),
            Map.entry("SqliteSchema.java: index", "statements from the constant INDEXES"),
            Map.entry("SqliteSchema.java: sql", "the class's own catalogue queries"),
            Map.entry("ClaimStatements.java: sql", "one of the class's claim constants"),
            Map.entry("ClaimStatements.java: claim.budget(",
                    "one of two claim constants, with a delivery budget or without"),
            Map.entry("LimitStatements.java: sql", "one of the class's own constants"),
            Map.entry("FanOutStatements.java: INSERT_ROWS[size]",
                    "multi-row inserts built once from literal text and row numbers; every value is bound"),
            Map.entry("ExecutionStatements.java: sql", "one of the class's two lookup constants"),
            Map.entry("BusSchema.java: statement", "the class's own constant CREATE statements"));

    @Test
    void sqlIsOnlyConstantTextWithUserDataInBoundParameters() throws IOException {
        List<String> unreviewed = new ArrayList<>();
        List<String> seen = new ArrayList<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            for (Path file : files.filter(path -> path.toString().endsWith(".java")).toList()) {
                String name = file.getFileName().toString();
                for (String line : Files.readAllLines(file)) {
                    String code = line.strip();
                    if (code.startsWith("*") || code.startsWith("//")) {
                        continue;
                    }
                    Matcher call = SQL_CALL.matcher(code);
                    while (call.find()) {
                        String argument = call.group(2).strip();
                        boolean literal = argument.startsWith("\"") && !argument.contains("+");
                        if (literal || LITERAL_OR_CONSTANT.matcher(argument).matches() || argument.startsWith("this::")
                                || argument.startsWith("() ->") || isNotSql(argument)) {
                            continue;
                        }
                        String key = name + ": " + argument;
                        seen.add(key);
                        if (!REVIEWED.containsKey(key)) {
                            unreviewed.add(key);
                        }
                    }
                }
            }
        }

        assertThat(unreviewed).as("SQL built from something other than constants; bind user data as parameters, "
                + "or review it and list it in REVIEWED").isEmpty();
        assertThat(seen).as("reviewed entries that no longer exist").containsAll(REVIEWED.keySet());
    }

    @Test
    void noSqlLiteralQuotesAValueItself() throws IOException {
        Pattern quotedConcatenation = Pattern.compile("'\"\\s*\\+|\\+\\s*\"'");
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            for (Path file : files.filter(path -> path.toString().endsWith(".java")).toList()) {
                List<String> lines = Files.readAllLines(file);
                for (int i = 0; i < lines.size(); i++) {
                    if (quotedConcatenation.matcher(lines.get(i)).find() && SQL_WORD.matcher(lines.get(i)).find()) {
                        found.add(file.getFileName() + ":" + (i + 1) + ": " + lines.get(i).strip());
                    }
                }
            }
        }
        assertThat(found).as("a value spliced between quotes into text that may be SQL").isEmpty();
    }

    /** Method references and arguments of same-named methods that are not SQL (an executor's task, a latch). */
    private static boolean isNotSql(String argument) {
        return argument.endsWith("::pollLoop") || argument.equals("runnable") || argument.equals("task");
    }
}
