package io.localqueue.internal.store;

/** What an attempt to take an execution's source lease found. */
public enum SourceClaim {
    /** The lease is the caller's now. */
    TAKEN,
    /** Another receipt holds a live lease. */
    HELD,
    /** The source was read to the end already; nobody needs the lease. */
    SOURCE_DONE
}
