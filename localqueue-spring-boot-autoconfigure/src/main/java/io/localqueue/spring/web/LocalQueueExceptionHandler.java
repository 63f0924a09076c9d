package io.localqueue.spring.web;

import io.localqueue.DatabaseBusyException;
import io.localqueue.LocalQueueException;
import io.localqueue.QueueClosedException;
import io.localqueue.QueueFullException;
import io.localqueue.StoreUnavailableException;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;

/**
 * Answers a Spring MVC request whose handler met a full queue ({@link QueueFullException}), a queue closed by the
 * application's shutdown ({@link QueueClosedException}), a store out of reach ({@link StoreUnavailableException}) or
 * a database whose write lock stayed taken ({@link DatabaseBusyException}) with {@code 503 Service Unavailable}, a
 * {@code Retry-After} header and an RFC 9457 problem detail that reveals neither the queue nor the store. It is
 * ordered last, so an {@code @ExceptionHandler} of the application's own (in the controller, or in any other advice)
 * wins.
 *
 * @since 0.1.0
 */
@ControllerAdvice
@Order(Ordered.LOWEST_PRECEDENCE)
public class LocalQueueExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(LocalQueueExceptionHandler.class);

    private final String retryAfterSeconds;

    /**
     * Creates the handler.
     *
     * @param retryAfter what the {@code Retry-After} header asks for, rounded up to whole seconds; zero or more
     * @throws IllegalArgumentException when {@code retryAfter} is null or negative
     */
    public LocalQueueExceptionHandler(Duration retryAfter) {
        if (retryAfter == null || retryAfter.isNegative()) {
            throw new IllegalArgumentException("retryAfter must be zero or more, got " + retryAfter);
        }
        long seconds = retryAfter.getSeconds() + (retryAfter.getNano() > 0 ? 1 : 0);
        this.retryAfterSeconds = Long.toString(seconds);
    }

    /**
     * Answers a full queue: the work was not accepted, and may be sent again later.
     *
     * @param full what the template threw
     * @return 503 with {@code Retry-After} and a problem detail
     */
    @ExceptionHandler(QueueFullException.class)
    public ResponseEntity<ProblemDetail> queueFull(QueueFullException full) {
        log.debug("Answering 503: {}", full.getMessage());
        return unavailable("The service cannot take more work right now; retry later.");
    }

    /**
     * Answers a queue that closed while the request was in progress, which happens when the application shuts down.
     *
     * @param closed what the queue threw
     * @return 503 with {@code Retry-After} and a problem detail
     */
    @ExceptionHandler(QueueClosedException.class)
    public ResponseEntity<ProblemDetail> queueClosed(QueueClosedException closed) {
        log.debug("Answering 503: {}", closed.getMessage());
        return unavailable("The service is shutting down; retry later.");
    }

    /**
     * Answers a store that could not be reached, or whose write lock stayed taken: nothing was written, and the same
     * request can succeed once the store is back.
     *
     * @param failure what the template threw
     * @return 503 with {@code Retry-After} and a problem detail
     * @since 0.1.0
     */
    @ExceptionHandler({StoreUnavailableException.class, DatabaseBusyException.class})
    public ResponseEntity<ProblemDetail> storeUnavailable(LocalQueueException failure) {
        log.warn("Answering 503: {}", failure.getMessage());
        return unavailable("The service cannot reach its job store right now; retry later.");
    }

    private ResponseEntity<ProblemDetail> unavailable(String detail) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE, detail);
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
                .header(HttpHeaders.RETRY_AFTER, retryAfterSeconds)
                .body(problem);
    }
}
