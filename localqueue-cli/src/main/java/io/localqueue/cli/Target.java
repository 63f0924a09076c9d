package io.localqueue.cli;

import io.localqueue.LocalQueueDatabase;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * Which queues a command works on: a queue directory ({@code --path}) or a PostgreSQL schema ({@code --url} with
 * {@code --schema}, {@code --user} and a password from an environment variable or a prompt, never from the command
 * line). A directory without a queue file is refused rather than created; a file of the Python library's (or an
 * earlier release's) layout is read through a copy, and written only with {@code --upgrade}, since writing through
 * this library first adds its tables and columns to it.
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

    @Option(names = "--upgrade", description = "Let a command add this library's tables and columns: to a file of the "
            + "Python library's or an earlier release's layout (Python keeps working on it), when it writes; to a "
            + "PostgreSQL schema that lacks them (or does not exist), whatever it does.")
    boolean upgrade;

    @Option(names = "--password", interactive = true, arity = "0", description = "Ask for the PostgreSQL password.")
    char @Nullable [] password;

    private boolean noted;

    private boolean readThroughACopy;

    /** Whether the last {@link #open} read a file of another layout through a copy. */
    boolean readThroughACopy() {
        return readThroughACopy;
    }

    /**
     * Opens the target, or refuses a command line that names none, both, or a directory without a queue file; a file
     * whose layout opening would change is read through a copy ({@code writes} false) or refused unless
     * {@code --upgrade} allows it.
     */
    LocalQueueDatabase open(Map<String, String> environment, boolean writes, PrintWriter err) {
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
        return file(path.toAbsolutePath().normalize(), writes, err);
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
        if (!upgrade && !builder.isCurrentLayout()) {
            throw new CliProblem("schema '" + (schema == null ? LocalQueueDatabase.DEFAULT_SCHEMA : schema)
                    + "' holds no localqueue tables of this release's layout (missing, or older): check --schema; "
                    + "--upgrade lets this tool create or update them, as the application does when it starts");
        }
        return builder.open();
    }

    private LocalQueueDatabase file(Path directory, boolean writes, PrintWriter err) {
        Path file = directory.resolve(LocalQueueDatabase.FILE_NAME);
        if (!Files.isDirectory(directory)) {
            throw new CliProblem("no queue directory at " + directory + ": --path names the directory that holds "
                    + LocalQueueDatabase.FILE_NAME);
        }
        if (!Files.isRegularFile(file)) {
            throw new CliProblem("no queue file in " + directory + " (" + LocalQueueDatabase.FILE_NAME
                    + " is missing): check --path; this tool does not create one");
        }
        if (LocalQueueDatabase.isCurrentLayout(directory) || (writes && upgrade)) {
            return LocalQueueDatabase.open(directory);
        }
        String name = "'" + spec.qualifiedName(" ").replaceFirst("^localqueue ", "") + "'";
        if (writes) {
            throw new CliProblem(file + " has the Python library's (or an earlier release's) layout, and " + name
                    + " writes through this library, which first adds its tables and columns to the file (rows stay "
                    + "as they are, and Python processes keep working on it); run it again with --upgrade to allow "
                    + "that");
        }
        readThroughACopy = true;
        if (!noted) {
            noted = true;
            err.println("note: " + file + " has the Python library's (or an earlier release's) layout; it is read "
                    + "through a copy and left as it is");
            err.flush();
        }
        return LocalQueueDatabase.openSnapshot(directory);
    }
}
