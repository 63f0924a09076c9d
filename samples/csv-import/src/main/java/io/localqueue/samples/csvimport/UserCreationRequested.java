package io.localqueue.samples.csvimport;

import io.localqueue.bus.BusEvent;

/**
 * One CSV row as an event: a request to create a user. Its identity is the import and the user's external id, so
 * reading the row again (a resumed import, or the same user twice in the file) stores no second event.
 *
 * @param importId the import the row belongs to
 * @param externalId the user's id in the system the CSV came from
 * @param name the user's name
 * @param email the user's email address, as written in the file
 * @since 0.1.0
 */
@BusEvent(name = UserCreationRequested.NAME, identity = {"importId", "externalId"})
public record UserCreationRequested(String importId, String externalId, String name, String email) {

    /**
     * The event type, which also names the subscription of its handler.
     *
     * @since 0.1.0
     */
    public static final String NAME = "user.creation-requested";
}
