package io.localqueue.benchmark;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.ObjIntConsumer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads the dashboard's JSON routes over HTTP/1.1 with kept-alive connections, each body read whole, and times one
 * route call by call.
 */
final class DashboardClient {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final DashboardApp app;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    DashboardClient(DashboardApp app) {
        this.app = app;
    }

    /**
     * Returns the request of a path, reusable for every call.
     *
     * @param path the path with its query
     * @return the GET request
     */
    HttpRequest request(String path) {
        return HttpRequest.newBuilder(URI.create(app.url(path))).timeout(TIMEOUT).GET().build();
    }

    /**
     * Sends a request and reads its body.
     *
     * @param request the request
     * @return the body
     * @throws IOException when the connection fails
     * @throws InterruptedException when interrupted
     * @throws IllegalStateException when the status is not 200
     */
    String send(HttpRequest request) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            String body = response.body();
            throw new IllegalStateException("GET " + request.uri().getRawPath() + " answered "
                    + response.statusCode() + ": " + body.substring(0, Math.min(200, body.length())));
        }
        return response.body();
    }

    /**
     * Parses a body.
     *
     * @param body JSON text
     * @return the tree
     */
    static JsonNode json(String body) {
        return JSON.readTree(body);
    }

    /**
     * Times one route call by call, after the profile's warm-up: every answer must be a 200, and the last body must
     * pass {@code check}.
     *
     * @param context the run
     * @param row the result's name
     * @param path the route with its query
     * @param calls the measured calls asked for
     * @param measures what one sample spans
     * @param check validates the last body
     * @return the result, with no details yet
     * @throws Exception when a request cannot be sent
     */
    ScenarioResult measure(RunContext context, String row, String path, int calls, String measures,
                           Function<JsonNode, Validation> check) throws Exception {
        return measure(context, row, path, calls, measures, (body, call) -> { }, check);
    }

    /**
     * Times one route call by call, as {@link #measure(RunContext, String, String, int, String, Function)} does,
     * showing every body to {@code eachBody}.
     *
     * @param context the run
     * @param row the result's name
     * @param path the route with its query
     * @param calls the measured calls asked for
     * @param measures what one sample spans
     * @param eachBody sees every body with its call's index, counted from 0 across the warm-up and the measured calls
     * @param check validates the last body
     * @return the result, with no details yet
     * @throws Exception when a request cannot be sent
     */
    ScenarioResult measure(RunContext context, String row, String path, int calls, String measures,
                           ObjIntConsumer<String> eachBody, Function<JsonNode, Validation> check) throws Exception {
        context.progress(row);
        HttpRequest request = request(path);
        AtomicReference<String> last = new AtomicReference<>();
        AtomicReference<String> failure = new AtomicReference<>();
        OperationLoop.Timing timing = OperationLoop.run(context.profile().limits(calls), i -> {
            try {
                String body = send(request);
                eachBody.accept(body, i);
                last.set(body);
            } catch (IllegalStateException refused) {
                failure.compareAndSet(null, refused.getMessage());
            }
        });
        Validation validation = failure.get() != null ? Validation.failed(failure.get())
                : last.get() == null ? Validation.failed("no answer") : check.apply(json(last.get()));
        return ScenarioResult.builder(row, DashboardScenario.GROUP, null)
                .measured(timing, 1, "calls")
                .latency(timing.latencies(), measures)
                .validation(validation)
                .build();
    }
}
