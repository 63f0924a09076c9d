package io.localqueue.internal.store;

import io.localqueue.JobOutcome;
import java.util.List;

/**
 * What a batch of fenced settlements and renewals did.
 *
 * @param outcomes each settlement's outcome, index by index; {@link JobOutcome#DISCARDED} where its fence did not
 *                 match and nothing changed
 * @param renewed for each renewal, index by index, whether its fence matched and the lease was renewed
 */
public record FencedResults(List<JobOutcome> outcomes, List<Boolean> renewed) {
}
