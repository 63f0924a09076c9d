package io.localqueue.internal.engine;

import java.util.function.Function;

/**
 * Lets the API's packages reach the database behind a public handle, which has no public accessor for it: the
 * handle's class registers how it retains its database when it is loaded, before any handle exists.
 */
public final class DatabaseHandles {

    private static volatile Function<Object, Database> retainer = handle -> {
        throw new IllegalStateException("no database handle class registered");
    };

    private DatabaseHandles() {
    }

    /**
     * Registers how a handle retains its database; called once, by the handle's class.
     *
     * @param retainer takes one more reference to a handle's database
     */
    public static void register(Function<Object, Database> retainer) {
        DatabaseHandles.retainer = retainer;
    }

    /**
     * Takes one more reference to the database behind a handle.
     *
     * @param handle an open handle
     * @return its database; close it once when done
     */
    public static Database retain(Object handle) {
        return retainer.apply(handle);
    }
}
