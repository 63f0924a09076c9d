package io.localqueue.dashboard;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;
import org.springframework.web.util.HtmlUtils;

/**
 * The one HTML page, read once from the jar: it holds no script of its own (the strict Content-Security-Policy it is
 * served with allows only the jar's files), and tells the script in {@code meta} tags where the page lives, whether it
 * may act, how often to refresh, and the request's CSRF token.
 */
final class DashboardPage {

    /** What the page is served with: scripts, styles and requests of the application's own origin only. */
    static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; "
            + "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'self'";

    private static final String TEMPLATE = read();

    private DashboardPage() {
    }

    /** The page, for a path, a mode, a refresh interval and the request's CSRF token (null without one). */
    static String render(String path, Mode mode, long refreshMillis, CsrfTokens.@Nullable Token csrf) {
        return TEMPLATE.replace("{{path}}", HtmlUtils.htmlEscape(path))
                .replace("{{readOnly}}", String.valueOf(mode != Mode.ACTIONS))
                .replace("{{mode}}", mode.words)
                .replace("{{refreshMillis}}", String.valueOf(refreshMillis))
                .replace("{{csrfHeader}}", csrf == null ? "" : HtmlUtils.htmlEscape(csrf.header()))
                .replace("{{csrfToken}}", csrf == null ? "" : HtmlUtils.htmlEscape(csrf.value()));
    }

    /** Whether the page offers actions, and why not. */
    enum Mode {

        /** Actions allowed, and this user may run them. */
        ACTIONS("actions allowed"),
        /** The dashboard is read-only for everyone. */
        READ_ONLY("read-only"),
        /** Actions are allowed, but the application's security rules refuse them to this user. */
        NOT_FOR_YOU("read-only for you");

        private final String words;

        Mode(String words) {
            this.words = words;
        }
    }

    private static String read() {
        try (InputStream in = DashboardPage.class.getResourceAsStream("index.html")) {
            if (in == null) {
                throw new IllegalStateException("the dashboard's index.html is missing from its jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException failure) {
            throw new UncheckedIOException(failure);
        }
    }
}
