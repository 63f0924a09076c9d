package io.localqueue.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The rule of docs/architecture.md's rooms, checked on the imports of core's sources: a package uses only the
 * packages below it in {@link #ROOMS}, and any package may use the API's values (its public exceptions, enums and
 * records, and the two policies), which themselves use nothing of the rooms but {@code internal.time} and the seam's
 * checks of stored text.
 */
class LayeringTest {

    private static final Path SOURCES = Path.of("src/main/java");

    /** The rooms from the top down; a room on a line uses only rooms on later lines. */
    private static final List<Set<String>> ROOMS = List.of(
            Set.of("io.localqueue.bus"),
            Set.of("io.localqueue"),
            Set.of("io.localqueue.internal.consumer", "io.localqueue.internal.recurring"),
            Set.of("io.localqueue.internal.engine"),
            Set.of("io.localqueue.internal.store.sqlite"),
            Set.of("io.localqueue.internal.store"),
            Set.of("io.localqueue.internal.wakeup", "io.localqueue.internal.bus", "io.localqueue.internal.csv"),
            Set.of("io.localqueue.internal.time"));

    /** What the API's values may use of the rooms: durations, and the checks of what a store can keep. */
    private static final Set<String> VALUES_MAY_USE = Set.of("io.localqueue.internal.store.StoredHeaders",
            "io.localqueue.internal.store.StoredText");

    /** API classes that are values though neither records nor enums nor exceptions. */
    private static final Set<String> VALUE_CLASSES = Set.of("io.localqueue.DeliveryPolicy",
            "io.localqueue.RetryPolicy");

    private static final Pattern PACKAGE = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE);
    private static final Pattern IMPORT = Pattern.compile(
            "^import (?:static )?(io\\.localqueue(?:\\.[a-z]\\w*)*)\\.([A-Z]\\w*)", Pattern.MULTILINE);

    @Test
    void importsPointDownTheRoomsOrAtTheApisValues() throws IOException {
        List<String> upward = new ArrayList<>();
        for (Map.Entry<Path, String> file : sources().entrySet()) {
            String from = packageOf(file.getValue());
            Matcher imported = IMPORT.matcher(file.getValue());
            while (imported.find()) {
                String to = imported.group(1);
                String type = to + "." + imported.group(2);
                if (!to.equals(from) && rank(to) <= rank(from) && !isApiValue(type)) {
                    upward.add(file.getKey().getFileName() + " (" + from + ") imports " + type);
                }
            }
        }

        assertThat(upward).as("imports that run up the rooms of docs/architecture.md").isEmpty();
    }

    @Test
    void theApisValuesUseNothingOfTheRoomsButTimeAndTheChecksOfStoredText() throws IOException {
        List<String> reaching = new ArrayList<>();
        for (Map.Entry<Path, String> file : sources().entrySet()) {
            String type = packageOf(file.getValue()) + "." + file.getKey().getFileName().toString()
                    .replace(".java", "");
            if (!isApiValue(type)) {
                continue;
            }
            Matcher imported = IMPORT.matcher(file.getValue());
            while (imported.find()) {
                String to = imported.group(1);
                String used = to + "." + imported.group(2);
                if (to.startsWith("io.localqueue.internal.") && !to.equals("io.localqueue.internal.time")
                        && !VALUES_MAY_USE.contains(used)) {
                    reaching.add(type + " imports " + used);
                }
            }
        }

        assertThat(reaching).isEmpty();
    }

    @Test
    void everyPackageOfCoreHasItsRoom() throws IOException {
        Set<String> packages = new TreeSet<>();
        for (String source : sources().values()) {
            packages.add(packageOf(source));
        }

        assertThat(packages).allSatisfy(name -> assertThat(rank(name)).as(name).isNotNegative());
    }

    private static int rank(String packageName) {
        for (int i = 0; i < ROOMS.size(); i++) {
            if (ROOMS.get(i).contains(packageName)) {
                return i;
            }
        }
        return -1;
    }

    private static boolean isApiValue(String type) {
        if (VALUE_CLASSES.contains(type)) {
            return true;
        }
        if (!type.startsWith("io.localqueue.") || type.startsWith("io.localqueue.internal.")) {
            return false;
        }
        try {
            Class<?> loaded = Class.forName(type, false, LayeringTest.class.getClassLoader());
            return java.lang.reflect.Modifier.isPublic(loaded.getModifiers())
                    && (loaded.isRecord() || loaded.isEnum() || Throwable.class.isAssignableFrom(loaded));
        } catch (ClassNotFoundException notAClass) {
            return false;
        }
    }

    private static String packageOf(String source) {
        Matcher declared = PACKAGE.matcher(source);
        return declared.find() ? declared.group(1) : "";
    }

    private static Map<Path, String> sources() throws IOException {
        Map<Path, String> sources = new java.util.TreeMap<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            for (Path file : files.filter(path -> path.toString().endsWith(".java")
                    && !path.endsWith("module-info.java") && !path.endsWith("package-info.java")).toList()) {
                sources.put(file, Files.readString(file));
            }
        }
        return sources;
    }
}
