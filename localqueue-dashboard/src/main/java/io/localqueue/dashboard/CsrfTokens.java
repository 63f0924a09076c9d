package io.localqueue.dashboard;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;
import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.util.ClassUtils;

/**
 * The CSRF token Spring Security keeps for a request, when the application has Spring Security: the page sends it
 * with every action in the header it names. Without Spring Security there is none, and the page's actions rely on
 * their JSON body, which a form of another site cannot send.
 */
final class CsrfTokens {

    private static final boolean SECURITY = ClassUtils.isPresent("org.springframework.security.web.csrf.CsrfToken",
            CsrfTokens.class.getClassLoader());

    private CsrfTokens() {
    }

    /** The request's token, or null when the application has no Spring Security or no CSRF protection. */
    static @Nullable Token of(HttpServletRequest request) {
        return SECURITY ? Security.of(request) : null;
    }

    /**
     * A CSRF token.
     *
     * @param header the header the application reads it from
     * @param value the token
     */
    record Token(String header, String value) {
    }

    /** Loaded only when Spring Security is present. */
    private static final class Security {

        static @Nullable Token of(HttpServletRequest request) {
            return request.getAttribute(CsrfToken.class.getName()) instanceof CsrfToken token
                    ? new Token(token.getHeaderName(), token.getToken()) : null;
        }
    }
}
