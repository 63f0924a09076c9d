package io.localqueue.spring.actuate;

import io.localqueue.spring.AppHttp;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.json.JsonMapper;

/**
 * Base of tests of test applications over HTTP: each has a web server on a free port, the queue file in the test's
 * directory and the {@code health}, {@code localqueue} and {@code metrics} endpoints exposed with details, and is
 * closed after the test.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
abstract class ActuatorAppTestBase {

    static final JsonMapper JSON = JsonMapper.shared();

    @TempDir
    Path dir;

    final AppHttp http = new AppHttp();

    private final List<ConfigurableApplicationContext> started = new ArrayList<>();

    @AfterEach
    void closeApplications() {
        started.forEach(ConfigurableApplicationContext::close);
    }

    /** Starts an application with the common properties, then {@code extra} ("key=value"), which win. */
    ConfigurableApplicationContext start(Class<?> source, String... extra) {
        List<String> properties = new ArrayList<>(List.of("server.port=0", "localqueue.path=" + dir,
                "management.endpoints.web.exposure.include=health,localqueue,metrics",
                "management.endpoint.health.show-details=always", "spring.main.banner-mode=off"));
        properties.addAll(List.of(extra));
        ConfigurableApplicationContext app = new SpringApplicationBuilder(source)
                .properties(properties.toArray(String[]::new)).run();
        started.add(app);
        return app;
    }
}
