package io.localqueue.internal.store;

/**
 * Where a database is, as a {@link StoreProvider} is asked to open it: the file of a queue directory, a copy of one taken for reading, a server by its
 * settings, or a schema reached through a caller's data source. Equal locations name one database in this JVM, so
 * every queue and bus on it shares one store.
 */
public sealed interface StoreLocation permits FileLocation, SnapshotLocation, ServerSettings,
        DataSourceLocation {
}
