/**
 * localqueue: durable, fenced, multi-process-safe job queues on one SQLite file. Only {@code io.localqueue} and
 * {@code io.localqueue.bus} (the event bus) are API;
 * the {@code io.localqueue.internal} packages are not exported and may change in any release.
 */
module io.localqueue {
    requires transitive java.sql;
    requires org.slf4j;
    requires org.xerial.sqlitejdbc;
    requires org.apache.commons.csv;
    requires transitive tools.jackson.databind;
    requires static transitive org.jspecify;

    exports io.localqueue;
    exports io.localqueue.bus;
}
