package io.localqueue.samples.csvimport;

import io.localqueue.bus.EventContext;
import io.localqueue.bus.RejectException;
import io.localqueue.spring.EventHandler;
import java.util.regex.Pattern;
import org.springframework.stereotype.Component;

/**
 * Creates the user each request asks for through the user API, several at a time. A request with an invalid email is
 * rejected (a dead letter at once, category {@code invalid_email}); a busy API throws, and the delivery is retried
 * under the subscription's exponential policy ({@code localqueue.bus.subscriptions.*.retry} in
 * {@code application.yml}).
 *
 * @since 0.1.0
 */
@Component
public class UserCreator {

    private static final Pattern EMAIL = Pattern.compile("[^@\\s]+@[^@\\s]+\\.[^@\\s]+");

    private final UserApi api;

    UserCreator(UserApi api) {
        this.api = api;
    }

    @EventHandler(concurrency = "${csv-import.workers:4}", handlerTimeout = "10s")
    void create(UserCreationRequested request, EventContext context) {   // subscription "user.creation-requested"
        if (!EMAIL.matcher(request.email()).matches()) {
            throw new RejectException("invalid email '" + request.email() + "' for user " + request.externalId(),
                    "invalid_email");
        }
        // The event id is the idempotency key: a delivery that runs again after a crash creates nothing new.
        api.create(request.externalId(), request.name(), request.email(), context.eventId().toString());
    }
}
