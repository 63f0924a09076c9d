package io.localqueue.benchmark;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A minimal Spring Boot servlet application with localqueue's auto-configuration and the dashboard, serving the queues
 * of one directory on a free port of the loopback address, as an application that adds the dashboard does.
 */
final class DashboardApp implements AutoCloseable {

    private final ConfigurableApplicationContext context;

    private DashboardApp(ConfigurableApplicationContext context) {
        this.context = context;
    }

    /**
     * Starts the application.
     *
     * @param directory the queue directory ({@code localqueue.path})
     * @param properties more properties, {@code name=value}
     * @return the running application
     */
    static DashboardApp start(Path directory, String... properties) {
        List<String> all = new ArrayList<>(List.of("server.port=0", "server.address=127.0.0.1",
                "localqueue.path=" + directory, "spring.main.banner-mode=off", "spring.main.log-startup-info=false"));
        all.addAll(List.of(properties));
        return new DashboardApp(new SpringApplicationBuilder(Application.class).properties(all.toArray(String[]::new))
                .registerShutdownHook(false).run());
    }

    /**
     * Returns the address of a path of the application.
     *
     * @param path a path with its query, starting with {@code /}
     * @return the absolute URL
     */
    String url(String path) {
        return "http://127.0.0.1:" + context.getEnvironment().getProperty("local.server.port") + path;
    }

    /** Stops the application and its server, and closes its queues. */
    @Override
    public void close() {
        SpringApplication.exit(context);
    }

    /** The application: auto-configuration only, nothing scanned. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Application {
    }
}
