package io.localqueue.cli;

import io.localqueue.LocalQueueDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.sqlite.SQLiteConfig;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * Which queues a command works on: a queue directory ({@code --path}) or a PostgreSQL schema ({@code --url} with
 * {@code --schema}, {@code --user} and a password from an environment variable or a prompt, never from the command
 * line). A directory without a queue file is refused rather than created.
 */
final class Target {

    /** The environment variable a password is read from unless {@code --password-env} names another. */
    static final String PASSWORD_VARIABLE = "LOCALQUEUE_PASSWORD";

    @CommandLine.Spec(CommandLine.Spec.Target.MIXEE)
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--path", paramLabel = "DIR", description = "A queue directory (the one holding "
            + LocalQueueDatabase.FILE_NAME + ").")
    @Nullable Path path;

    @Option(names = "--url", paramLabel = "JDBC_URL", description = "A PostgreSQL database: jdbc:postgresql://host/db")
    @Nullable String url;

    @Option(names = "--schema", paramLabel = "SCHEMA", description = "The schema of the queues on PostgreSQL "
            + "(default: localqueue).")
    @Nullable String schema;

    @Option(names = "--user", paramLabel = "USER", description = "The PostgreSQL user (default: the URL's).")
    @Nullable String user;

    @Option(names = "--password-env", paramLabel = "VARIABLE", defaultValue = PASSWORD_VARIABLE,
            description = "The environment variable holding the PostgreSQL password (default: ${DEFAULT-VALUE}).")
    String passwordVariable = PASSWORD_VARIABLE;

    @Option(names = "--password", interactive = true, arity = "0", description = "Ask for the PostgreSQL password.")
    char @Nullable [] password;

    /** Opens the target, or refuses a command line that names none, both, or a directory without a queue file. */
    LocalQueueDatabase open(Map<String, String> environment) {
        CommandLine line = spec.commandLine();
        if ((path == null) == (url == null)) {
            throw new CommandLine.ParameterException(line, path == null
                    ? "name the queues: --path DIR (a queue directory) or --url jdbc:postgresql://… (a schema)"
                    : "name one target: --path or --url, not both");
        }
        if (url != null) {
            return server(url, environment);
        }
        if (schema != null || user != null || password != null) {
            throw new CommandLine.ParameterException(line, "--schema, --user and --password go with --url, not "
                    + "--path");
        }
        return file(path.toAbsolutePath().normalize());
    }

    private LocalQueueDatabase server(String jdbcUrl, Map<String, String> environment) {
        if (!jdbcUrl.startsWith("jdbc:postgresql:")) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--url must be a PostgreSQL JDBC URL "
                    + "(jdbc:postgresql://host/database), got '" + jdbcUrl + "'");
        }
        LocalQueueDatabase.ServerBuilder builder = LocalQueueDatabase.server(jdbcUrl).poolSize(3);
        if (schema != null) {
            builder.schema(schema);
        }
        if (user != null) {
            builder.username(user);
        }
        String secret = password != null ? new String(password) : environment.get(passwordVariable);
        if (secret != null && !secret.isEmpty()) {
            builder.password(secret);
        }
        return builder.open();
    }

    private static LocalQueueDatabase file(Path directory) {
        Path file = directory.resolve(LocalQueueDatabase.FILE_NAME);
        if (!Files.isDirectory(directory)) {
            throw new CliProblem("no queue directory at " + directory + ": --path names the directory that holds "
                    + LocalQueueDatabase.FILE_NAME);
        }
        if (!Files.isRegularFile(file)) {
            throw new CliProblem("no queue file in " + directory + " (" + LocalQueueDatabase.FILE_NAME
                    + " is missing): check --path; this tool does not create one");
        }
        if (!hasOwnLayout(file)) {
            throw new CliProblem(file + " has the Python library's layout without this library's additions; opening "
                    + "it here would add them, so this tool leaves it alone");
        }
        return LocalQueueDatabase.open(directory);
    }

    /** Whether the file already has this library's tables, read on a read-only connection that changes nothing. */
    private static boolean hasOwnLayout(Path file) {
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        config.setBusyTimeout(5_000);
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file, config.toProperties());
             ResultSet tables = connection.createStatement().executeQuery(
                     "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'message_headers'")) {
            return tables.next();
        } catch (SQLException unreadable) {
            throw new CliProblem("cannot read " + file + " as a queue file: " + unreadable.getMessage());
        }
    }
}
