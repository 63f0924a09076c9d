package io.localqueue.dashboard;

import io.localqueue.LocalQueueException;
import io.localqueue.bus.EventBus;
import jakarta.servlet.ServletException;
import java.io.IOException;
import java.security.Principal;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.core.io.ClassPathResource;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * The dashboard's routes under its path: the page, its files from the jar, the JSON reads, and one POST for every
 * action, so that a security rule protects all actions with one path ({@code <path>/api/action}).
 */
final class DashboardRoutes {

    /** The one route of every action, under the dashboard's path. */
    static final String ACTION = "/api/action";

    private final DashboardSettings settings;
    private final Overview overview;
    private final JobReader jobs;
    private final DashboardActions actions;
    private final @Nullable EventBus bus;
    private final ActionPermission permission;

    DashboardRoutes(DashboardSettings settings, Overview overview, JobReader jobs, DashboardActions actions,
                    @Nullable EventBus bus, ActionPermission permission) {
        this.settings = settings;
        this.overview = overview;
        this.jobs = jobs;
        this.actions = actions;
        this.bus = bus;
        this.permission = permission;
    }

    RouterFunction<ServerResponse> routes() {
        String path = settings.path();
        return RouterFunctions.route()
                .GET(path, this::page)
                .GET(path + "/", this::page)
                .GET(path + "/api/overview", request -> json(overview.report()))
                .GET(path + "/api/jobs", this::jobPage)
                .GET(path + "/api/job", this::job)
                .GET(path + "/api/dead-deliveries", this::deadDeliveries)
                .POST(path + ACTION, this::act)
                .GET(path + ACTION, request -> error(HttpStatus.METHOD_NOT_ALLOWED,
                        "an action is a POST with a JSON body"))
                .add(RouterFunctions.resources(path + "/assets/**",
                        new ClassPathResource("io/localqueue/dashboard/assets/")))
                .onError(IllegalArgumentException.class, (failure, request) -> error(HttpStatus.BAD_REQUEST,
                        failure.getMessage()))
                .onError(LocalQueueException.class, (failure, request) -> error(HttpStatus.INTERNAL_SERVER_ERROR,
                        failure.getMessage()))
                .build();
    }

    private ServerResponse page(ServerRequest request) {
        DashboardPage.Mode mode = settings.readOnly() ? DashboardPage.Mode.READ_ONLY
                : permission.mayAct(request.servletRequest()) ? DashboardPage.Mode.ACTIONS
                : DashboardPage.Mode.NOT_FOR_YOU;
        String html = DashboardPage.render(settings.path(), mode, settings.refresh().toMillis(),
                CsrfTokens.of(request.servletRequest()));
        return ServerResponse.ok().contentType(new MediaType(MediaType.TEXT_HTML, java.nio.charset.StandardCharsets.UTF_8))
                .header("Content-Security-Policy", DashboardPage.CONTENT_SECURITY_POLICY)
                .header("X-Content-Type-Options", "nosniff")
                .header("Referrer-Policy", "same-origin")
                .header(HttpHeaders.CACHE_CONTROL, "no-store")
                .body(html);
    }

    private ServerResponse jobPage(ServerRequest request) {
        String queue = required(request, "queue");
        JobReader.JobPage page = jobs.page(queue, request.param("state").orElse("ready"),
                request.param("after").orElse(null), optional(request, "limit"));
        return page == null ? unknownQueue(queue) : json(page);
    }

    private ServerResponse job(ServerRequest request) {
        String queue = required(request, "queue");
        long id = number(request, "id");
        JobReader.JobDetail job = jobs.job(queue, id);
        if (jobs.known(queue) == null) {
            return unknownQueue(queue);
        }
        return job == null ? error(HttpStatus.NOT_FOUND, "queue '" + queue + "' has no job " + id) : json(job);
    }

    private ServerResponse deadDeliveries(ServerRequest request) {
        String subscription = required(request, "subscription");
        JobReader.DeliveryPage page = jobs.deadDeliveries(bus, subscription,
                request.param("offset").isPresent() ? optional(request, "offset") : 0);
        return page == null ? error(HttpStatus.NOT_FOUND, "the event bus has no subscription '" + subscription + "'")
                : json(page);
    }

    private ServerResponse act(ServerRequest request) throws IOException {
        String user = request.principal().map(Principal::getName).orElse("anonymous");
        String address = request.servletRequest().getRemoteAddr();
        DashboardActions.Result result;
        try {
            result = actions.run(request.body(DashboardActions.ActionRequest.class), user, address);
        } catch (HttpMediaTypeNotSupportedException notJson) {
            result = actions.unreadable("an action is a JSON body: send it with Content-Type: application/json",
                    user, address);
        } catch (HttpMessageNotReadableException | ServletException unreadable) {
            result = actions.unreadable("the action's body is not the JSON the dashboard reads ({\"action\": "
                    + "..., \"queue\" | \"subscription\" | \"recurring\": ..., \"ids\": [...] | \"all\": true, "
                    + "\"runAt\": \"2030-01-01T00:00:00Z\"}): " + firstLine(unreadable.getMessage()), user, address);
        }
        HttpStatus status = switch (result.status()) {
            case DONE -> HttpStatus.OK;
            case BAD_REQUEST -> HttpStatus.BAD_REQUEST;
            case FORBIDDEN -> HttpStatus.FORBIDDEN;
            case NOT_FOUND -> HttpStatus.NOT_FOUND;
            case FAILED -> HttpStatus.INTERNAL_SERVER_ERROR;
        };
        return ServerResponse.status(status).contentType(MediaType.APPLICATION_JSON).body(result);
    }

    private static String firstLine(@Nullable String message) {
        String line = message == null ? "unreadable" : message.lines().findFirst().orElse("unreadable");
        return line.length() <= 200 ? line : line.substring(0, 200) + "…";
    }

    private static @Nullable Integer optional(ServerRequest request, String name) {
        if (request.param(name).isEmpty()) {
            return null;
        }
        long value = number(request, name);
        return (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, value));
    }

    private static long number(ServerRequest request, String name) {
        String value = required(request, name);
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException notANumber) {
            throw new IllegalArgumentException("the parameter '" + name + "' must be a whole number, got '"
                    + (value.length() <= 40 ? value : value.substring(0, 40) + "…") + "'");
        }
    }

    private static String required(ServerRequest request, String name) {
        Optional<String> value = request.param(name);
        if (value.isEmpty() || value.get().isBlank()) {
            throw new IllegalArgumentException("the request needs the parameter '" + name + "'");
        }
        return value.get();
    }

    private static ServerResponse unknownQueue(String queue) {
        return error(HttpStatus.NOT_FOUND, "the application has no queue '" + queue + "'");
    }

    private static ServerResponse json(Object body) {
        return ServerResponse.ok().contentType(MediaType.APPLICATION_JSON)
                .header(HttpHeaders.CACHE_CONTROL, "no-store").body(body);
    }

    private static ServerResponse error(HttpStatus status, @Nullable String message) {
        return ServerResponse.status(status).contentType(MediaType.APPLICATION_JSON)
                .body(Map.of("error", message == null ? status.getReasonPhrase() : message));
    }
}
