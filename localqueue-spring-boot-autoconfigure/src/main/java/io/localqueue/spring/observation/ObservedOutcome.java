package io.localqueue.spring.observation;

import io.micrometer.observation.Observation;

/** The {@code outcome} tag of every localqueue observation: what the observed call did, never what it carried. */
final class ObservedOutcome {

    /** The call returned. */
    static final String SUCCESS = "success";

    /** The call threw. */
    static final String FAILURE = "failure";

    private ObservedOutcome() {
    }

    /** Returns the outcome of the observed call, known once it ended; "success" until an error is recorded. */
    static String of(Observation.Context context) {
        return context.getError() == null ? SUCCESS : FAILURE;
    }
}
