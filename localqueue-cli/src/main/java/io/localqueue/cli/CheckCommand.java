package io.localqueue.cli;

import io.localqueue.IntegrityCheckMode;
import io.localqueue.IntegrityCheckResult;
import io.localqueue.LocalQueueDatabase;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code localqueue check}: SQLite's integrity (or quick) check and the foreign-key check of the whole file, or
 * PostgreSQL's reachability; exit 1 when it finds anything.
 */
@Command(name = "check", mixinStandardHelpOptions = true,
        description = "Checks the file's integrity (SQLite's integrity_check and foreign_key_check); exit 1 on "
                + "findings.")
final class CheckCommand extends TargetCommand {

    /** What to do about a damaged file, as the operations guide says. */
    static final String DAMAGED = "the file is damaged: stop the processes that write it, keep the damaged files "
            + "for analysis, and restore the last good backup (see the operations guide, Damage); 'vacuum' does not "
            + "repair it";

    @Option(names = "--quick", description = "SQLite's quick_check: faster, skips matching indexes to their rows.")
    boolean quick;

    @Option(names = "--max-errors", paramLabel = "N", defaultValue = "100",
            description = "Findings to report at most, 1 to 1000 (default: ${DEFAULT-VALUE}).")
    int maxErrors;

    /** A check's findings one per line: SQLite reports several in one message at times. */
    static List<String> findings(IntegrityCheckResult result) {
        return result.ok() ? List.of() : result.messages().stream().flatMap(String::lines)
                .filter(line -> !line.isBlank()).toList();
    }

    @Override
    public void run() {
        if (maxErrors < 1 || maxErrors > 1000) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--max-errors must be 1 to 1000, got "
                    + maxErrors);
        }
        try (LocalQueueDatabase database = open()) {
            IntegrityCheckResult result = database.checkIntegrity(quick ? IntegrityCheckMode.QUICK
                    : IntegrityCheckMode.FULL, maxErrors);
            List<String> findings = findings(result);
            Map<String, Object> document = new LinkedHashMap<>();
            document.put("location", database.location());
            document.put("mode", result.mode().name().toLowerCase(java.util.Locale.ROOT));
            document.put("ok", result.ok());
            document.put("findings", findings);
            document.put("elapsedMillis", result.elapsed().toMillis());
            if (output.json) {
                output.print(out(), document);
            } else {
                out().println(result.ok() ? "ok: " + database.location() + " passed the " + document.get("mode")
                        + " check" : database.location() + ": " + findings.size() + " finding(s)");
                findings.forEach(finding -> out().println("  " + finding));
                out().flush();
            }
            if (!result.ok()) {
                throw new CliProblem(DAMAGED);
            }
        }
    }
}
