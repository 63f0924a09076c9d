package io.localqueue.benchmark;

import io.localqueue.DurabilityMode;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * The benchmark's command line.
 *
 * @param profile the profile name
 * @param output where {@code report.json} and {@code report.md} go
 * @param workDirectory where the run's queue files go (in a fresh subdirectory)
 * @param keepWorkDirectory whether the queue files stay after the run
 * @param modes the durability modes to measure
 * @param only scenario name prefixes to run, or empty for all of the profile's
 * @param store where the queues are kept: {@code sqlite} (files in the work directory) or {@code postgresql} (an
 *              embedded server whose data directory is in the work directory)
 * @param arguments the arguments as given
 */
public record Options(String profile, Path output, Path workDirectory, boolean keepWorkDirectory,
                      List<DurabilityMode> modes, List<String> only, String store, List<String> arguments) {

    /** The usage text. */
    public static final String USAGE = """
            Usage: BenchmarkMain [--profile smoke|standard|multiprocess|bus] [--store sqlite|postgresql]
                                 [--output DIR] [--workdir DIR] [--durability relaxed|durable|both]
                                 [--only NAME,...] [--keep-workdir]

              --profile       sizes and scenarios (default smoke)
              --store         where the queues are kept (default sqlite): postgresql starts an embedded
                              PostgreSQL server in this JVM, its data directory in the work directory, and runs
                              the scenarios that apply to a server, each on a fresh schema
              --output        directory for report.json and report.md (default target/benchmarks)
              --workdir       directory for the queue files (or the server's data directory), which decides the
                              filesystem measured
                              (default: OUTPUT/work); each run uses a fresh subdirectory, deleted afterwards
              --durability    durability modes to measure (default both)
              --only          run only the scenarios whose names start with one of these prefixes
              --keep-workdir  keep the queue files
            Relative paths resolve against the directory in system property localqueue.benchmark.baseDir
            (the module directory under exec:java), else the working directory.""";

    /**
     * Parses the command line.
     *
     * @param args the arguments
     * @param baseDirectory what relative paths resolve against
     * @return the options
     * @throws IllegalArgumentException when an argument is unknown or a value is missing or invalid
     */
    public static Options parse(String[] args, Path baseDirectory) {
        String profile = "smoke";
        Path output = baseDirectory.resolve("target/benchmarks");
        @Nullable Path work = null;
        boolean keep = false;
        List<DurabilityMode> modes = List.of(DurabilityMode.RELAXED, DurabilityMode.DURABLE);
        List<String> only = List.of();
        String store = BenchStore.Sqlite.NAME;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "--profile" -> profile = Profile.named(value(args, ++i, arg)).name();
                case "--output" -> output = baseDirectory.resolve(value(args, ++i, arg));
                case "--workdir" -> work = baseDirectory.resolve(value(args, ++i, arg));
                case "--keep-workdir" -> keep = true;
                case "--store" -> store = store(value(args, ++i, arg));
                case "--durability" -> modes = modes(value(args, ++i, arg));
                case "--only" -> only = Arrays.stream(value(args, ++i, arg).split(","))
                        .map(String::trim).filter(name -> !name.isEmpty()).toList();
                default -> throw new IllegalArgumentException("unknown argument '" + arg + "'\n" + USAGE);
            }
        }
        Path workDirectory = work != null ? work : output.resolve("work");
        return new Options(profile, output.normalize(), workDirectory.normalize(), keep, modes, only, store,
                List.of(args));
    }

    /**
     * Returns the directory relative paths resolve against.
     *
     * @return the module directory when run through Maven, else the working directory
     */
    public static Path baseDirectory() {
        String configured = System.getProperty("localqueue.benchmark.baseDir");
        return Path.of(configured != null && !configured.isBlank() ? configured : "").toAbsolutePath();
    }

    private static String value(String[] args, int index, String option) {
        if (index >= args.length || args[index].startsWith("--")) {
            throw new IllegalArgumentException(option + " needs a value\n" + USAGE);
        }
        return args[index];
    }

    private static String store(String value) {
        String name = value.toLowerCase(Locale.ROOT);
        if (!BenchStore.NAMES.contains(name)) {
            throw new IllegalArgumentException("--store must be one of " + BenchStore.NAMES + ", got '" + value + "'");
        }
        return name;
    }

    private static List<DurabilityMode> modes(String value) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "both" -> List.of(DurabilityMode.RELAXED, DurabilityMode.DURABLE);
            case "relaxed" -> List.of(DurabilityMode.RELAXED);
            case "durable" -> List.of(DurabilityMode.DURABLE);
            default -> throw new IllegalArgumentException("--durability must be relaxed, durable or both, got '"
                    + value + "'");
        };
    }

    /**
     * Returns whether the usage text was asked for.
     *
     * @param args the arguments
     * @return true for {@code --help} or {@code -h}
     */
    public static boolean wantsHelp(String[] args) {
        return Arrays.asList(args).contains("--help") || Arrays.asList(args).contains("-h");
    }
}
