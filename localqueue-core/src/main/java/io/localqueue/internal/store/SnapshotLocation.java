package io.localqueue.internal.store;

import java.nio.file.Path;

/**
 * A copy of a queue directory's file, taken for reading without writing to the file, in a scratch directory of its own
 * that closing the store deletes; each copy is a location of its own, so two looks at one file never share a copy.
 *
 * @param source the queue directory whose file is copied
 * @param scratch the directory the copy is made in, empty beforehand
 */
public record SnapshotLocation(Path source, Path scratch) implements StoreLocation {

    /**
     * Returns the file that is copied.
     *
     * @return the source directory's {@value FileLocation#FILE_NAME}
     */
    public Path file() {
        return source.resolve(FileLocation.FILE_NAME);
    }
}
