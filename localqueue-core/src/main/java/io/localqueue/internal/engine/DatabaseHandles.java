package io.localqueue.internal.engine;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Lets the API's packages reach the database behind a public handle, which has no public accessor for it: the
 * handle's class registers, by its own type, how it retains its database when it is loaded (before any handle
 * exists), and a caller holding a handle asks by that type. Typed at both ends, without this package naming the
 * handle's class.
 */
public final class DatabaseHandles {

    /**
     * How a handle of one type retains its database.
     *
     * @param <H> the handle type
     */
    @FunctionalInterface
    public interface Access<H> {

        /**
         * Takes one more reference to the database behind a handle.
         *
         * @param handle an open handle
         * @return its database; close it once when done
         */
        Database retain(H handle);
    }

    private static final Map<Class<?>, Access<?>> ACCESS = new ConcurrentHashMap<>();

    private DatabaseHandles() {
    }

    /**
     * Registers how handles of a type retain their database; called once, by the handle's class.
     *
     * @param type the handle type
     * @param access how one of them retains its database
     * @param <H> the handle type
     */
    public static <H> void register(Class<H> type, Access<H> access) {
        ACCESS.put(type, access);
    }

    /**
     * Takes one more reference to the database behind a handle.
     *
     * @param type the handle's type, as its class registered it
     * @param handle an open handle
     * @param <H> the handle type
     * @return its database; close it once when done
     * @throws IllegalStateException when no class registered that type
     */
    public static <H> Database retain(Class<H> type, H handle) {
        Access<?> access = ACCESS.get(type);
        if (access == null) {
            throw new IllegalStateException("no database handle class registered as " + type.getName());
        }
        @SuppressWarnings("unchecked") // registered under its own type by register(Class<H>, Access<H>)
        Access<H> typed = (Access<H>) access;
        return typed.retain(handle);
    }
}
