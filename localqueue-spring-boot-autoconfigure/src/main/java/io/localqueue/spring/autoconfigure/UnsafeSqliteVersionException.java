package io.localqueue.spring.autoconfigure;

import java.nio.file.Path;

/**
 * The application would run localqueue on a SQLite library older than {@value SqliteVersionCheck#MINIMUM_VERSION};
 * its message says what is wrong and how to fix it, and {@link UnsafeSqliteVersionFailureAnalyzer} turns it into
 * Boot's failure report.
 */
final class UnsafeSqliteVersionException extends IllegalStateException {

    private static final String ACCEPT = "To start anyway and accept the risk, set "
            + SqliteVersionCheck.ALLOW_PROPERTY + "=true.";

    private final String description;
    private final String fix;

    UnsafeSqliteVersionException(String version, Path file, String testedDriver) {
        this(describe(version, file), fix(testedDriver));
    }

    private UnsafeSqliteVersionException(String description, String fix) {
        super(description + " " + fix + " " + ACCEPT);
        this.description = description;
        this.fix = fix;
    }

    /** What is wrong and what is at risk. */
    String description() {
        return description;
    }

    /** How to run the driver localqueue is tested with. */
    String fix() {
        return fix;
    }

    /** The fix, or how to accept the risk. */
    String action() {
        return fix + " " + ACCEPT;
    }

    private static String describe(String version, Path file) {
        return "localqueue needs SQLite " + SqliteVersionCheck.MINIMUM_VERSION + " or newer, but " + file
                + " is opened with SQLite " + version + ". Releases before " + SqliteVersionCheck.MINIMUM_VERSION
                + " lack SQLite's fix of a WAL-reset bug that can corrupt a database several connections write at"
                + " once, as localqueue's is.";
    }

    private static String fix(String testedDriver) {
        return "Run the SQLite driver localqueue is tested with, org.xerial:sqlite-jdbc " + testedDriver
                + ". Under spring-boot-starter-parent add <sqlite-jdbc.version>" + testedDriver
                + "</sqlite-jdbc.version> to the <properties> of the pom (Gradle with Spring's dependency-management"
                + " plugin: ext['sqlite-jdbc.version'] = '" + testedDriver + "'); a build that imports"
                + " spring-boot-dependencies imports io.localqueue:localqueue-bom before it.";
    }
}
