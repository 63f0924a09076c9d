package io.localqueue.samples.csvimport;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A one-shot import: reads a CSV of users ({@code ./users.csv}, generated when missing) through the event bus into
 * a user API, prints the execution's report and exits. The import's checkpoint lives in {@code ./data/localqueue.db}
 * and the users in {@code ./csv-import-users.db}; stopped half-way (Ctrl-C), the same command resumes it, and no
 * user is created twice.
 *
 * @since 0.1.0
 */
@SpringBootApplication
@EnableConfigurationProperties(CsvImportProperties.class)
public class CsvImportApplication {

    /**
     * Runs the import, then closes the application with the import's exit code.
     *
     * @param args Spring Boot arguments, such as {@code --csv-import.rows=500000}
     * @since 0.1.0
     */
    public static void main(String[] args) {
        ConfigurableApplicationContext context = SpringApplication.run(CsvImportApplication.class, args);
        if (!context.isClosed()) {   // a stop (Ctrl-C) closes it already, and the JVM is on its way out
            System.exit(SpringApplication.exit(context));
        }
    }
}
