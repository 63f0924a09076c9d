/**
 * localqueue: durable, fenced, multi-process-safe job queues on one SQLite file, or on PostgreSQL through the
 * {@code io.localqueue.postgresql} module. Only {@code io.localqueue} and
 * {@code io.localqueue.bus} (the event bus) are API;
 * the {@code io.localqueue.internal} packages are not exported, but for the store seam's to the PostgreSQL store's
 * module, and may change in any release.
 */
module io.localqueue {
    requires transitive java.sql;
    requires org.slf4j;
    requires org.xerial.sqlitejdbc;
    requires spring.jdbc;
    requires spring.tx;
    requires spring.context;
    requires static org.apache.commons.csv;
    requires transitive tools.jackson.databind;
    requires static transitive org.jspecify;

    exports io.localqueue;
    exports io.localqueue.bus;

    // The seam, for the stores of database servers, which are modules of their own.
    exports io.localqueue.internal.store to io.localqueue.postgresql;
    exports io.localqueue.internal.wakeup to io.localqueue.postgresql;

    // Every store is found the same way: this module's SQLite store, and those of the server stores' modules.
    uses io.localqueue.internal.store.StoreProvider;
    provides io.localqueue.internal.store.StoreProvider with io.localqueue.internal.store.sqlite.SqliteStoreProvider;
}
