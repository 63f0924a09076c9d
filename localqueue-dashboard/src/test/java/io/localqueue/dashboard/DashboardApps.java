package io.localqueue.dashboard;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import io.localqueue.spring.LocalQueueRegistry;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.event.EventListener;

/** Starts real web applications with the dashboard on a queue directory of a test, and calls them over HTTP. */
final class DashboardApps {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private DashboardApps() {
    }

    /** Starts the application of {@code sources} on a free port, queues in {@code directory}, with more properties. */
    static ConfigurableApplicationContext start(Path directory, List<Class<?>> sources, String... properties) {
        List<String> all = new ArrayList<>(List.of("server.port=0", "server.address=127.0.0.1",
                "localqueue.path=" + directory, "spring.main.banner-mode=off"));
        all.addAll(List.of(properties));
        return new SpringApplicationBuilder(sources.toArray(Class<?>[]::new)).properties(all.toArray(String[]::new))
                .run();
    }

    static ConfigurableApplicationContext start(Path directory, String... properties) {
        return start(directory, List.of(App.class), properties);
    }

    static String base(ConfigurableApplicationContext app) {
        return "http://127.0.0.1:" + app.getEnvironment().getProperty("local.server.port");
    }

    static HttpResponse<String> get(ConfigurableApplicationContext app, String path)
            throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create(base(app) + path)).timeout(TIMEOUT).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static HttpResponse<String> post(ConfigurableApplicationContext app, String path, String json)
            throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create(base(app) + path)).timeout(TIMEOUT)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static LocalQueueRegistry queues(ConfigurableApplicationContext app) {
        return app.getBean(LocalQueueRegistry.class);
    }

    static void close(ConfigurableApplicationContext app) {
        SpringApplication.exit(app);
    }

    /** A web application with queues and the dashboard, which records the dashboard's audit events. */
    @SpringBootConfiguration
    @EnableAutoConfiguration(excludeName = {
            "org.springframework.boot.security.autoconfigure.SecurityAutoConfiguration",
            "org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration",
            "org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration",
            "org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterAutoConfiguration"})
    static class App {

        @Bean
        Audit audit() {
            return new Audit();
        }
    }

    /** The dashboard's audit events this application received. */
    static final class Audit {

        final List<DashboardActionEvent> events = new CopyOnWriteArrayList<>();

        @EventListener
        void on(DashboardActionEvent event) {
            events.add(event);
        }
    }
}
