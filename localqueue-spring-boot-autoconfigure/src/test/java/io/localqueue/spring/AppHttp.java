package io.localqueue.spring;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.springframework.context.ConfigurableApplicationContext;

/** Plain HTTP calls to a test application's web server, on the port it picked. */
public final class AppHttp {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** Sends {@code GET path}. */
    public HttpResponse<String> get(ConfigurableApplicationContext app, String path)
            throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(uri(app, path)).timeout(TIMEOUT).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** Sends {@code POST path} with a JSON body. */
    public HttpResponse<String> post(ConfigurableApplicationContext app, String path, String json)
            throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(uri(app, path)).timeout(TIMEOUT)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(json)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** Sends {@code POST path} with no body and no {@code Content-Type}, as {@code curl -X POST} does. */
    public HttpResponse<String> post(ConfigurableApplicationContext app, String path)
            throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(uri(app, path)).timeout(TIMEOUT)
                        .POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** Sends {@code DELETE path}. */
    public HttpResponse<String> delete(ConfigurableApplicationContext app, String path)
            throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(uri(app, path)).timeout(TIMEOUT).DELETE().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static URI uri(ConfigurableApplicationContext app, String path) {
        return URI.create("http://127.0.0.1:" + app.getEnvironment().getProperty("local.server.port") + path);
    }
}
