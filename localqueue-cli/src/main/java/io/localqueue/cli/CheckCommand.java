package io.localqueue.cli;

import io.localqueue.IntegrityCheckMode;
import io.localqueue.IntegrityCheckResult;
import io.localqueue.LocalQueueDatabase;
import java.util.LinkedHashMap;
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

    @Option(names = "--quick", description = "SQLite's quick_check: faster, skips matching indexes to their rows.")
    boolean quick;

    @Option(names = "--max-errors", paramLabel = "N", defaultValue = "100",
            description = "Findings to report at most, 1 to 1000 (default: ${DEFAULT-VALUE}).")
    int maxErrors;

    @Override
    public void run() {
        if (maxErrors < 1 || maxErrors > 1000) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--max-errors must be 1 to 1000, got "
                    + maxErrors);
        }
        try (LocalQueueDatabase database = open()) {
            IntegrityCheckResult result = database.checkIntegrity(quick ? IntegrityCheckMode.QUICK
                    : IntegrityCheckMode.FULL, maxErrors);
            Map<String, Object> document = new LinkedHashMap<>();
            document.put("location", database.location());
            document.put("mode", result.mode().name().toLowerCase(java.util.Locale.ROOT));
            document.put("ok", result.ok());
            document.put("findings", result.ok() ? java.util.List.of() : result.messages());
            document.put("elapsedMillis", result.elapsed().toMillis());
            if (output.json) {
                output.print(out(), document);
            } else {
                out().println(result.ok() ? "ok: " + database.location() + " passed the " + document.get("mode")
                        + " check" : database.location() + ": " + result.messages().size() + " finding(s)");
                if (!result.ok()) {
                    result.messages().forEach(message -> out().println("  " + message));
                }
                out().flush();
            }
            if (!result.ok()) {
                throw new CliProblem("the check found problems; restore a backup ('backup' takes one) or see "
                        + "docs/operations.md on a damaged file");
            }
        }
    }
}
