package io.localqueue.benchmark;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * Runs the soak (chaos) harness from the command line: producers and consumers in separate JVMs on one queue file,
 * killed with {@code kill -9} and restarted, handler failures and lease overruns, and another program holding the
 * write lock; then the ledger check. Prints the figures, writes them to {@code soak-report.txt} in the output
 * directory, and fails (a non-zero exit, or a failed Maven build) when a job was lost or any invariant broke.
 *
 * <pre>
 * ./mvnw -q -pl localqueue-benchmark -am -DskipTests package exec:java \
 *     -Dexec.mainClass=io.localqueue.benchmark.SoakMain -Dexec.args="--profile long"
 * </pre>
 */
public final class SoakMain {

    static final String USAGE = """
            Usage: SoakMain [--profile short|long] [--duration SECONDS] [--seed N] [--output DIR] [--workdir DIR]
                            [--keep-workdir]

              --profile       short (90 s of faults, for CI) or long (15 minutes, the published figures); default short
              --duration      seconds of the fault phase instead of the profile's
              --seed          seed of the fault schedule (default: drawn and printed)
              --output        directory for soak-report.txt (default target/soak)
              --workdir       directory for the run's files, in a fresh subdirectory deleted afterwards unless the
                              run failed (default: OUTPUT/work)
              --keep-workdir  keep the run's files even when it passed
            Relative paths resolve against the directory in system property localqueue.benchmark.baseDir
            (the module directory under exec:java), else the working directory.""";

    static final String REPORT = "soak-report.txt";

    private SoakMain() {
    }

    /**
     * Runs the soak.
     *
     * @param args see {@link #USAGE}
     * @throws Exception when the run cannot complete, or an invariant failed
     */
    public static void main(String[] args) throws Exception {
        if (Options.wantsHelp(args)) {
            System.out.println(USAGE);
            return;
        }
        Path base = Options.baseDirectory();
        String profileName = "short";
        @Nullable Duration duration = null;
        Path output = base.resolve("target/soak");
        @Nullable Path work = null;
        boolean keep = false;
        long seed = System.nanoTime();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--profile" -> profileName = SoakProfile.named(value(args, ++i)).name();
                case "--duration" -> duration = Duration.ofSeconds(Long.parseLong(value(args, ++i)));
                case "--seed" -> seed = Long.parseLong(value(args, ++i));
                case "--output" -> output = base.resolve(value(args, ++i));
                case "--workdir" -> work = base.resolve(value(args, ++i));
                case "--keep-workdir" -> keep = true;
                default -> throw new IllegalArgumentException("unknown argument '" + args[i] + "'\n" + USAGE);
            }
        }
        SoakProfile profile = SoakProfile.named(profileName);
        if (duration != null) {
            profile = profile.withDuration(duration);
        }
        Path workRoot = Files.createDirectories(work != null ? work : output.resolve("work"));
        Path run = Files.createTempDirectory(workRoot, "soak-");
        System.out.println("localqueue soak: profile " + profile.name() + ", " + profile.duration().toSeconds()
                + " s of faults, seed " + seed + ", files in " + run);
        SoakResult result = SoakRun.execute(profile, run, seed, line -> System.out.println("  " + line));
        String report = result.render();
        System.out.println(report);
        Files.writeString(Files.createDirectories(output).resolve(REPORT), report + System.lineSeparator(), UTF_8);
        if (!result.passed()) {
            throw new IllegalStateException("soak failed, its files are kept in " + run + ": " + result.violations());
        }
        if (!keep) {
            BenchmarkRun.deleteRecursively(run);
        }
    }

    private static String value(String[] args, int index) {
        if (index >= args.length || args[index].startsWith("--")) {
            throw new IllegalArgumentException(args[index - 1] + " needs a value\n" + USAGE);
        }
        return args[index];
    }
}
