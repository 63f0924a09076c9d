package io.localqueue.samples.csvimport;

import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * A stand-in for a remote user API, so the sample runs anywhere: it keeps users in a SQLite file of its own
 * ({@code ./csv-import-users.db}), keyed by their external id, so creating a user twice creates it once. Like a busy
 * server, it refuses the first request for one user in {@value #BUSY_ONE_IN} (per process), so the retries show.
 *
 * @since 0.1.0
 */
@Component
public class UserApi {

    /** One user in this many is refused on its first request. */
    static final int BUSY_ONE_IN = 100;

    private final JdbcTemplate jdbc;
    private final Set<String> refusedOnce = ConcurrentHashMap.newKeySet();
    private final AtomicLong refusals = new AtomicLong();
    private final AtomicLong created = new AtomicLong();

    UserApi(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Creates a user unless one with this external id exists, in which case nothing changes but the count of
     * repeated requests.
     *
     * @param externalId the user's external id
     * @param name the name
     * @param email the email address
     * @param idempotencyKey the caller's key for this request, kept with the user
     * @return true when the user was created by this call, false when it existed
     * @throws UserApiBusyException when the API asks to try again later
     * @since 0.1.0
     */
    public boolean create(String externalId, String name, String email, String idempotencyKey) {
        if (Math.floorMod(externalId.hashCode(), BUSY_ONE_IN) == 0 && refusedOnce.add(externalId)) {
            refusals.incrementAndGet();
            throw new UserApiBusyException("503 user API busy, try again later (user " + externalId + ")");
        }
        int inserted = jdbc.update("INSERT INTO users (external_id, name, email, idempotency_key, created_at) "
                + "VALUES (?, ?, ?, ?, ?) ON CONFLICT (external_id) DO NOTHING", externalId, name, email,
                idempotencyKey, Instant.now().toString());
        if (inserted == 1) {
            created.incrementAndGet();
        } else {
            jdbc.update("UPDATE users SET repeated_requests = repeated_requests + 1 WHERE external_id = ?",
                    externalId);
        }
        return inserted == 1;
    }

    /**
     * Counts the users created so far, by every run.
     *
     * @return the number of users
     * @since 0.1.0
     */
    public long count() {
        Long count = jdbc.queryForObject("SELECT count(*) FROM users", Long.class);
        return count == null ? 0 : count;
    }

    /**
     * Counts the users this process created.
     *
     * @return the number of users created since start
     * @since 0.1.0
     */
    public long created() {
        return created.get();
    }

    /**
     * Counts the requests that found their user created already, by every run.
     *
     * @return the number of repeated requests
     * @since 0.1.0
     */
    public long repeatedRequests() {
        Long repeated = jdbc.queryForObject("SELECT coalesce(sum(repeated_requests), 0) FROM users", Long.class);
        return repeated == null ? 0 : repeated;
    }

    /**
     * Counts the requests this process refused as busy.
     *
     * @return the number of refusals
     * @since 0.1.0
     */
    public long refusals() {
        return refusals.get();
    }

    /**
     * The API is busy: a later request may succeed.
     *
     * @since 0.1.0
     */
    public static class UserApiBusyException extends RuntimeException {

        private static final long serialVersionUID = 1L;

        UserApiBusyException(String message) {
            super(message);
        }
    }
}
