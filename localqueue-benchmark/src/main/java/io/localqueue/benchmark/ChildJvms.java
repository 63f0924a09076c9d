package io.localqueue.benchmark;

import io.localqueue.testsupport.ChildProcess;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Starts the benchmark's child JVMs: {@link ChildMain} in one of its roles, on the benchmark's own class path,
 * driven through a {@link ChildProcess}.
 */
final class ChildJvms {

    /** The flags of every child: a small heap and the serial collector, which suit many JVMs on few cores. */
    static final List<String> JVM_FLAGS = List.of("-Xmx256m", "-XX:+UseSerialGC");

    /** The longest wait for any one line, unless the caller says otherwise. */
    static final Duration DEFAULT_WAIT = Duration.ofMinutes(2);

    private ChildJvms() {
    }

    /**
     * Starts a child in one of {@link ChildMain}'s roles.
     *
     * @param label a short name for messages
     * @param scratch the child's temporary directory (the SQLite driver unpacks its native library there)
     * @param role the role
     * @param arguments the role's arguments
     * @return the running child
     */
    static ChildProcess start(String label, Path scratch, String role, List<String> arguments) {
        List<String> words = new ArrayList<>();
        words.add(role);
        words.addAll(arguments);
        return ChildProcess.start(label, JVM_FLAGS, scratch, classPath(), ChildMain.class.getName(), words,
                DEFAULT_WAIT);
    }

    /**
     * Returns a child's settings with those of the run's store, so the child reaches the run's queues.
     *
     * @param context the run
     * @param settings the role's {@code key=value} settings
     * @return the settings, then the store's
     */
    static List<String> settings(RunContext context, String... settings) {
        List<String> all = new ArrayList<>(List.of(settings));
        all.addAll(context.store().childSettings());
        return all;
    }

    /**
     * Returns the class path of the benchmark's own classes: the JVM's class path when it holds them (a plain
     * {@code java -cp} run, or a test), otherwise the URLs of the class loader that loaded them (as under
     * {@code exec:java}, which runs the module inside Maven's JVM).
     *
     * @return the class path for a child
     */
    static String classPath() {
        String jvmClassPath = System.getProperty("java.class.path", "");
        Optional<Path> own = ownLocation();
        if (own.isEmpty()) {
            return jvmClassPath;
        }
        for (String entry : jvmClassPath.split(java.io.File.pathSeparator)) {
            if (!entry.isEmpty() && Path.of(entry).toAbsolutePath().normalize().equals(own.get())) {
                return jvmClassPath;
            }
        }
        for (ClassLoader loader = ChildJvms.class.getClassLoader(); loader != null; loader = loader.getParent()) {
            if (loader instanceof URLClassLoader urls) {
                List<String> entries = new ArrayList<>();
                boolean holdsOwn = false;
                for (URL url : urls.getURLs()) {
                    Optional<Path> path = toPath(url);
                    if (path.isPresent()) {
                        entries.add(path.get().toString());
                        holdsOwn |= path.get().equals(own.get());
                    }
                }
                if (holdsOwn) {
                    return String.join(java.io.File.pathSeparator, entries);
                }
            }
        }
        return jvmClassPath;
    }

    private static Optional<Path> ownLocation() {
        var source = ChildJvms.class.getProtectionDomain().getCodeSource();
        return source == null ? Optional.empty() : toPath(source.getLocation());
    }

    private static Optional<Path> toPath(URL url) {
        try {
            return Optional.of(Path.of(url.toURI()).toAbsolutePath().normalize());
        } catch (URISyntaxException | IllegalArgumentException | java.nio.file.FileSystemNotFoundException notFile) {
            return Optional.empty();
        }
    }

}
