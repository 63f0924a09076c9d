package io.localqueue.spring.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.DatabaseBusyException;
import io.localqueue.QueueClosedException;
import io.localqueue.QueueFullException;
import io.localqueue.StoreUnavailableException;
import io.localqueue.spring.AppHttp;
import io.localqueue.spring.LocalQueueTemplate;
import io.localqueue.spring.autoconfigure.LocalQueueAutoConfiguration;
import io.localqueue.spring.autoconfigure.LocalQueueWebMvcAutoConfiguration;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.DispatcherServlet;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LocalQueueExceptionHandlerTest {

    private static final JsonMapper JSON = JsonMapper.shared();

    @TempDir
    Path dir;

    private final AppHttp http = new AppHttp();
    private final List<ConfigurableApplicationContext> started = new ArrayList<>();
    private final WebApplicationContextRunner web = new WebApplicationContextRunner().withConfiguration(
            AutoConfigurations.of(LocalQueueAutoConfiguration.class, LocalQueueWebMvcAutoConfiguration.class));

    @AfterEach
    void closeApplications() {
        started.forEach(ConfigurableApplicationContext::close);
    }

    // ---------------------------------------------------------------- over HTTP

    @Test
    void aPostThatMeetsAFullQueueGets503WithRetryAfterAndAProblemDetail() throws Exception {
        ConfigurableApplicationContext app = start(App.class);

        assertThat(http.post(app, "/jobs", "\"one\"").statusCode()).isEqualTo(200);
        assertThat(http.post(app, "/jobs", "\"two\"").statusCode()).isEqualTo(200);
        HttpResponse<String> third = http.post(app, "/jobs", "\"three\"");

        assertThat(third.statusCode()).isEqualTo(503);
        assertThat(third.headers().firstValue("Retry-After")).hasValue("5");
        assertThat(third.headers().firstValue("Content-Type")).hasValueSatisfying(type ->
                assertThat(type).startsWith("application/problem+json"));
        JsonNode problem = JSON.readTree(third.body());
        assertThat(problem.path("status").asInt()).isEqualTo(503);
        assertThat(problem.path("title").asString()).isEqualTo("Service Unavailable");
        assertThat(problem.path("instance").asString()).isEqualTo("/jobs");
        assertThat(third.body()).doesNotContain("small").doesNotContain("maxPendingJobs");
        assertThat(app.getBean(LocalQueueTemplate.class).stats("small").ready()).isEqualTo(2);
    }

    @Test
    void aRequestThatMeetsAClosedQueueGets503() throws Exception {
        ConfigurableApplicationContext app = start(App.class, "localqueue.web.retry-after=1500ms");

        HttpResponse<String> response = http.get(app, "/closing");

        assertThat(response.statusCode()).isEqualTo(503);
        assertThat(response.headers().firstValue("Retry-After")).hasValue("2");
        assertThat(JSON.readTree(response.body()).path("detail").asString()).contains("shutting down");
    }

    @Test
    void aRequestThatMeetsAStoreOutOfReachGets503WithRetryAfter() throws Exception {
        ConfigurableApplicationContext app = start(App.class);

        for (String path : List.of("/unreachable", "/busy")) {
            HttpResponse<String> response = http.get(app, path);

            assertThat(response.statusCode()).as(path).isEqualTo(503);
            assertThat(response.headers().firstValue("Retry-After")).as(path).hasValue("5");
            JsonNode problem = JSON.readTree(response.body());
            assertThat(problem.path("detail").asString()).as(path).contains("cannot reach its job store");
            assertThat(response.body()).as(path).doesNotContain("5432").doesNotContain("localqueue.db");
        }
    }

    @Test
    void anExceptionHandlerOfTheApplicationsOwnWins() throws Exception {
        ConfigurableApplicationContext app = start(AppWithOwnAdvice.class);

        http.post(app, "/jobs", "\"one\"");
        http.post(app, "/jobs", "\"two\"");
        HttpResponse<String> third = http.post(app, "/jobs", "\"three\"");

        assertThat(third.statusCode()).isEqualTo(429);
        assertThat(third.headers().firstValue("Retry-After")).isEmpty();
    }

    // ---------------------------------------------------------------- when it is configured

    @Test
    void handlerIsAutoConfiguredInAServletWebApplication() {
        web.withPropertyValues("localqueue.path=" + dir)
                .run(context -> assertThat(context).hasSingleBean(LocalQueueExceptionHandler.class));
    }

    @Test
    void handlerIsNotAutoConfiguredOutsideAWebApplication() {
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(LocalQueueAutoConfiguration.class,
                        LocalQueueWebMvcAutoConfiguration.class))
                .withPropertyValues("localqueue.path=" + dir).run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).doesNotHaveBean(LocalQueueExceptionHandler.class);
                });
    }

    @Test
    void handlerIsNotAutoConfiguredWithoutSpringMvcButTheTemplateWorks() {
        web.withPropertyValues("localqueue.path=" + dir)
                .withClassLoader(new FilteredClassLoader(DispatcherServlet.class)).run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).doesNotHaveBean(LocalQueueExceptionHandler.class);
                    assertThat(context.getBean(LocalQueueTemplate.class).put("plain", "x")).isPositive();
                });
    }

    @Test
    void backsOffWhenTheApplicationDefinesTheHandler() {
        LocalQueueExceptionHandler mine = new LocalQueueExceptionHandler(Duration.ofMinutes(1));
        web.withPropertyValues("localqueue.path=" + dir)
                .withBean("myHandler", LocalQueueExceptionHandler.class, () -> mine).run(context -> {
                    assertThat(context).hasSingleBean(LocalQueueExceptionHandler.class);
                    assertThat(context.getBean(LocalQueueExceptionHandler.class)).isSameAs(mine);
                });
    }

    @Test
    void aNegativeRetryAfterFailsTheStartNamingTheProperty() {
        web.withPropertyValues("localqueue.path=" + dir, "localqueue.web.retry-after=-1s").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause()
                    .isInstanceOf(InvalidConfigurationPropertyValueException.class)
                    .hasMessageContaining("localqueue.web.retry-after");
        });
    }

    // ---------------------------------------------------------------- support

    private ConfigurableApplicationContext start(Class<?> application, String... extra) {
        List<String> properties = new ArrayList<>(List.of("server.port=0", "localqueue.path=" + dir,
                "localqueue.queues.small.max-pending-jobs=2", "localqueue.producer.max-wait=100ms",
                "spring.main.banner-mode=off"));
        properties.addAll(List.of(extra));
        ConfigurableApplicationContext app = new SpringApplicationBuilder(application)
                .properties(properties.toArray(String[]::new)).run();
        started.add(app);
        return app;
    }

    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration(exclude = DataSourceAutoConfiguration.class)
    @Import(JobsController.class)
    static class App {
    }

    @Configuration(proxyBeanMethods = false)
    @Import({App.class, TooManyRequests.class})
    static class AppWithOwnAdvice {
    }

    @RestController
    static class JobsController {
        private final LocalQueueTemplate template;

        JobsController(LocalQueueTemplate template) {
            this.template = template;
        }

        @PostMapping("/jobs")
        long accept(@RequestBody String job) {
            return template.put("small", job);
        }

        @GetMapping("/closing")
        long closing() {
            throw new QueueClosedException("queue 'small' is closed");
        }

        @GetMapping("/unreachable")
        long unreachable() {
            throw new StoreUnavailableException("'enqueue' in schema jobs failed: the database server cannot be "
                    + "reached (SQLSTATE 08001): Connection to localhost:5432 refused",
                    new SQLException("Connection refused", "08001"));
        }

        @GetMapping("/busy")
        long busy() {
            throw new DatabaseBusyException("database is locked: localqueue.db", Duration.ofSeconds(30),
                    new SQLException("[SQLITE_BUSY] database is locked"));
        }
    }

    @ControllerAdvice
    static class TooManyRequests {
        @ExceptionHandler(QueueFullException.class)
        ResponseEntity<String> full(QueueFullException full) {
            return ResponseEntity.status(HttpStatus.TOO_MANY_REQUESTS).body("slow down");
        }
    }
}
