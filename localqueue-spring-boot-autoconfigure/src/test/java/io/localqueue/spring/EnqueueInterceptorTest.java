package io.localqueue.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.localqueue.EnqueueItem;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** Interceptors compose in order, the first one outermost, each handing the next the items it prepared. */
class EnqueueInterceptorTest {

    @Test
    void noInterceptorsRunTheWriteAsItIs() {
        List<EnqueueItem<Object>> items = List.of(EnqueueItem.of("a"));
        assertThat(EnqueueInterceptor.of(List.of())).isSameAs(EnqueueInterceptor.NONE);

        List<EnqueueItem<Object>> written = EnqueueInterceptor.NONE.intercept("q", items, given -> given);

        assertThat(written).isSameAs(items);
    }

    @Test
    void theFirstInterceptorRunsOutermostAndEachPassesItsItemsOn() {
        List<String> calls = new ArrayList<>();
        EnqueueInterceptor both = EnqueueInterceptor.of(List.of(tagging("outer", calls), tagging("inner", calls)));

        List<Map<String, String>> written = both.intercept("q", List.of(EnqueueItem.of("a")), items -> {
            calls.add("write");
            return items.stream().map(EnqueueItem::headers).toList();
        });

        assertThat(calls).containsExactly("outer", "inner", "write");
        assertThat(written).containsExactly(Map.of("outer", "yes", "inner", "yes"));
    }

    private static EnqueueInterceptor tagging(String name, List<String> calls) {
        return new EnqueueInterceptor() {
            @Override
            public <R> R intercept(String queue, List<EnqueueItem<Object>> items,
                                   Function<List<EnqueueItem<Object>>, R> write) {
                calls.add(name);
                return write.apply(items.stream().map(item -> {
                    Map<String, String> headers = new HashMap<>(item.headers());
                    headers.put(name, "yes");
                    return item.withHeaders(headers);
                }).toList());
            }
        };
    }
}
