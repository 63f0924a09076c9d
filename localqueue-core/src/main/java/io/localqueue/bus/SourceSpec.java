package io.localqueue.bus;

import java.util.function.Function;

/**
 * What a {@link SourceDefinition} binds, as the bus's ingestions and executions read it: the definition's name, its
 * source, the checkpoint it resumes from, the transform of items into events, and its config.
 *
 * @param <T> the source's item type
 */
record SourceSpec<T>(String name, ResumableSource<T> source, String checkpoint, Function<? super T, ?> transform,
                     SourceConfig config) {
}
