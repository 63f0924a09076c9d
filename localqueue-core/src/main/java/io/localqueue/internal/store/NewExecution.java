package io.localqueue.internal.store;

import org.jspecify.annotations.Nullable;

/**
 * The execution of a source definition to find, or to create when there is none.
 *
 * @param bus the bus's name
 * @param sourceName the definition's name
 * @param checkpoint the checkpoint's name
 * @param fingerprint the source's fingerprint
 * @param checkpointGeneration the checkpoint's incarnation as read in this transaction, or null when it does not exist
 * @param newId the id to give a new execution
 * @param now the time stamped on a new one
 */
public record NewExecution(String bus, String sourceName, String checkpoint, String fingerprint,
                           @Nullable String checkpointGeneration, String newId, long now) {
}
