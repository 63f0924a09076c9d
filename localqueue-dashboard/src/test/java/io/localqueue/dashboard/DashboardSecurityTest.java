package io.localqueue.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.SimpleQueue;
import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Under Spring Security the application's rules apply to the dashboard: a stranger is turned away, a viewer reads but
 * may not act, an admin acts only with the CSRF token the page carries, and the audit names who acted.
 */
class DashboardSecurityTest extends RunningAppTest {

    private static final Pattern TOKEN = Pattern.compile("name=\"localqueue-csrf-token\" content=\"([^\"]+)\"");


    @Test
    void viewersReadAdminsActWithTheTokenAndStrangersAreTurnedAway() throws Exception {
        app = DashboardApps.start(dir, List.of(SecuredApp.class), "localqueue.dashboard.read-only=false");
        SimpleQueue<Object> emails = DashboardApps.queues(app).queue("emails");
        emails.put("x");
        String pause = "{\"action\":\"pause\",\"queue\":\"emails\"}";

        assertThat(send(HttpClient.newHttpClient(), get(null, "/localqueue/api/overview")).statusCode())
                .isEqualTo(401);
        HttpClient viewer = session();
        HttpResponse<String> page = send(viewer, get("viewer:viewer-pw", "/localqueue"));
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).as("the viewer's page knows the rules refuse them actions")
                .contains("name=\"localqueue-read-only\" content=\"true\"").contains("read-only for you");
        assertThat(send(viewer, post("viewer:viewer-pw", pause, token(page))).statusCode()).isEqualTo(403);

        HttpClient admin = session();
        HttpResponse<String> adminPage = send(admin, get("admin:admin-pw", "/localqueue"));
        assertThat(adminPage.body()).contains("name=\"localqueue-read-only\" content=\"false\"");
        String token = token(adminPage);
        assertThat(send(admin, post("admin:admin-pw", pause, null)).statusCode()).as("without the token (the CSRF "
                + "check runs before basic authentication, so the refusal may read 401)").isIn(401, 403);
        assertThat(emails.isPaused()).isFalse();
        assertThat(send(admin, post("admin:admin-pw", pause, token)).statusCode()).isEqualTo(200);
        assertThat(emails.isPaused()).isTrue();
        assertThat(app.getBean(DashboardApps.Audit.class).events).singleElement()
                .satisfies(event -> assertThat(event.user()).isEqualTo("admin"));
    }

    private HttpRequest get(String credentials, String path) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(DashboardApps.base(app) + path)).GET();
        return (credentials == null ? request : request.header("Authorization", basic(credentials))).build();
    }

    private HttpRequest post(String credentials, String json, String token) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(DashboardApps.base(app)
                        + "/localqueue/api/action")).header("Authorization", basic(credentials))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json));
        return (token == null ? request : request.header("X-CSRF-TOKEN", token)).build();
    }

    private static HttpClient session() {
        return HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
    }

    private static HttpResponse<String> send(HttpClient http, HttpRequest request) throws Exception {
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    private static String token(HttpResponse<String> page) {
        Matcher found = TOKEN.matcher(page.body());
        assertThat(found.find()).as("the page carries a CSRF token").isTrue();
        return found.group(1);
    }

    private static String basic(String credentials) {
        return "Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8));
    }
}
