package io.localqueue.multiprocess;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Deletes a directory with everything in it. */
final class Directories {

    private Directories() {
    }

    /** Deletes {@code directory} and everything below it, deepest first. */
    static void deleteRecursively(Path directory) {
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException failure) {
            throw new UncheckedIOException("cannot delete " + directory, failure);
        }
    }
}
