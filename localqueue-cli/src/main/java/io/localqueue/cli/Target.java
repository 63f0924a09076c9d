package io.localqueue.cli;

import io.localqueue.LocalQueueDatabase;
import java.io.IOException;
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
     * whose layout opening would change, or that this user may not write, is read through a copy when the command only
     * reads, and otherwise refused unless {@code --upgrade} allows the change of layout.
     */
    LocalQueueDatabase open(Map<String, String> environment, Access access, PrintWriter err) {
        Path directory = directory();
        return directory == null ? server(url, environment) : file(directory, access, err);
    }

    /**
     * The queue directory the command line names, checked to hold a readable, non-empty queue file, or null for a
     * server; refuses a command line that names no target, or both.
     */
    @Nullable Path directory() {
        CommandLine line = spec.commandLine();
        if ((path == null) == (url == null)) {
            throw new CommandLine.ParameterException(line, path == null
                    ? "name the queues: --path DIR (a queue directory) or --url jdbc:postgresql://… (a schema)"
                    : "name one target: --path or --url, not both");
        }
        if (url != null) {
            return null;
        }
        if (schema != null || user != null || password != null) {
            throw new CommandLine.ParameterException(line, "--schema, --user and --password go with --url, not "
                    + "--path");
        }
        if (path.toString().isBlank()) {
            throw new CommandLine.ParameterException(line, "--path is empty: name the queue directory");
        }
        Path directory = path.toAbsolutePath().normalize();
        requireQueueFile(directory);
        return directory;
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

    private static void requireQueueFile(Path directory) {
        Path file = directory.resolve(LocalQueueDatabase.FILE_NAME);
        if (Files.isRegularFile(directory)) {
            throw new CliProblem(directory + " is a file: --path names the directory that holds "
                    + LocalQueueDatabase.FILE_NAME);
        }
        if (!Files.isDirectory(directory)) {
            throw new CliProblem("no queue directory at " + directory + ": --path names the directory that holds "
                    + LocalQueueDatabase.FILE_NAME);
        }
        if (!Files.isReadable(directory) || !Files.isExecutable(directory)) {
            throw new CliProblem("cannot look into " + directory + ": permission denied; run the tool as a user who "
                    + "can read the queue directory (the application's, say)");
        }
        if (!Files.isRegularFile(file)) {
            throw new CliProblem("no queue file in " + directory + " (" + LocalQueueDatabase.FILE_NAME
                    + " is missing): check --path; this tool does not create one");
        }
        if (!Files.isReadable(file)) {
            throw new CliProblem("cannot read " + file + ": permission denied; run the tool as a user who can read "
                    + "it (the application's, say)");
        }
        if (size(file) == 0) {
            throw new CliProblem(file + " is empty: no queue was ever stored in it, and this tool does not create "
                    + "one");
        }
    }

    private LocalQueueDatabase file(Path directory, Access access, PrintWriter err) {
        Path file = directory.resolve(LocalQueueDatabase.FILE_NAME);
        boolean writable = Files.isWritable(file) && Files.isWritable(directory);
        boolean current = LocalQueueDatabase.isCurrentLayout(directory);
        String name = "'" + spec.qualifiedName(" ").replaceFirst("^localqueue ", "") + "'";
        if (access != Access.READ && !writable) {
            throw new CliProblem(file + " is not writable by this user, and " + name + " writes: run the tool as the "
                    + "user the application runs as");
        }
        if (access != Access.READ && !current && !upgrade) {
            throw new CliProblem(file + " has the Python library's (or an earlier release's) layout, and " + name
                    + " writes through this library, which first adds its tables and columns to the file (rows stay "
                    + "as they are, and Python processes keep working on it); run it again with --upgrade to allow "
                    + "that");
        }
        if (access == Access.WRITE || (current && writable)) {
            return LocalQueueDatabase.open(directory);
        }
        readThroughACopy = !current;
        if (access == Access.READ && !noted) {
            noted = true;
            err.println("note: " + file + (current ? " is read-only for this user" : " has the Python library's (or "
                    + "an earlier release's) layout") + "; it is read through a copy and left as it is");
            err.flush();
        }
        return LocalQueueDatabase.openSnapshot(directory);
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException unreadable) {
            throw new CliProblem("cannot read " + file + ": " + unreadable.getMessage());
        }
    }

    /** The file the target names, checked, or null for a server: for what is done without opening it. */
    @Nullable Path file() {
        Path directory = directory();
        return directory == null ? null : directory.resolve(LocalQueueDatabase.FILE_NAME);
    }

    /** What a command does with its target. */
    enum Access {
        /** Only reads: a file it may not write, or of another layout, is read through a copy. */
        READ,
        /** Reads what a write will need to check, before any write: refused wherever the write would be. */
        CHECK,
        /** Writes. */
        WRITE
    }
}
