package io.localqueue.internal.store;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * The version of the localqueue artifact in use, as the build wrote it into the jar; "development" only when the
 * classes come from somewhere the build did not stamp.
 */
public final class PackageVersion {

    private static final String RESOURCE = "/io/localqueue/localqueue-version.properties";

    private static final String CURRENT = read();

    private PackageVersion() {
    }

    /**
     * Returns the artifact version, such as "0.1.0".
     *
     * @return the version
     */
    public static String current() {
        return CURRENT;
    }

    private static String read() {
        try (InputStream in = PackageVersion.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                return "development";
            }
            Properties properties = new Properties();
            properties.load(in);
            String version = properties.getProperty("version", "").trim();
            return version.isEmpty() || version.startsWith("${") ? "development" : version;
        } catch (IOException unreadable) {
            return "development";
        }
    }
}
