package io.localqueue.dashboard;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.web.access.WebInvocationPrivilegeEvaluator;
import org.springframework.util.ClassUtils;

/**
 * Whether the user of a request may run actions, asked of the application's own security rules: a viewer's page then
 * shows itself read-only instead of offering buttons that every request would refuse. Without Spring Security (or
 * without rules for the path) every user may.
 */
final class ActionPermission {

    private static final boolean SECURITY = ClassUtils.isPresent(
            "org.springframework.security.web.access.WebInvocationPrivilegeEvaluator",
            ActionPermission.class.getClassLoader());

    private final BeanFactory beans;
    private final String actionPath;

    ActionPermission(BeanFactory beans, String actionPath) {
        this.beans = beans;
        this.actionPath = actionPath;
    }

    /** Whether the request's user may POST an action. */
    boolean mayAct(HttpServletRequest request) {
        return !SECURITY || Security.mayPost(beans, request, actionPath);
    }

    /** Loaded only when Spring Security is present. */
    private static final class Security {

        static boolean mayPost(BeanFactory beans, HttpServletRequest request, String path) {
            WebInvocationPrivilegeEvaluator evaluator = beans.getBeanProvider(WebInvocationPrivilegeEvaluator.class)
                    .getIfUnique();
            return evaluator == null || evaluator.isAllowed(request.getContextPath(), path, "POST",
                    SecurityContextHolder.getContext().getAuthentication());
        }
    }
}
