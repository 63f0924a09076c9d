package io.localqueue.internal.csv;

/**
 * Tells, before any class of the CSV parser is loaded, whether the optional dependency is present, so that its
 * absence is one clear error naming the artifact rather than a {@link NoClassDefFoundError} in the middle of a read.
 */
public final class CsvParserDependency {

    /** The Maven coordinates of the CSV parser, as the error names them. */
    public static final String ARTIFACT = "org.apache.commons:commons-csv";

    private static final String PROBE = "org.apache.commons.csv.CSVFormat";

    private CsvParserDependency() {
    }

    /**
     * Fails when the CSV parser cannot be loaded.
     *
     * @param user what needs it, for the message
     * @throws IllegalStateException naming the artifact to add when it is absent
     */
    public static void require(String user) {
        try {
            Class.forName(PROBE, false, CsvParserDependency.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError absent) {
            throw new IllegalStateException(user + " needs Apache Commons CSV, an optional dependency of "
                    + "localqueue-core: add " + ARTIFACT + " to the application's dependencies (the localqueue BOM "
                    + "manages its version; on the module path, also 'requires org.apache.commons.csv;')", absent);
        }
    }
}
