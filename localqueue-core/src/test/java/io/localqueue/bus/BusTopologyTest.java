package io.localqueue.bus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BusTopologyTest {

    @BusEvent(name = "user.created")
    record UserCreated(String id) {
    }

    record OrderPlaced(String id) {
    }

    interface NotAnEvent {
    }

    @Test
    void theEmptyTopologyRoutesNothing() {
        BusTopology topology = BusTopology.empty();

        assertThat(topology.subscriptionNames()).isEmpty();
        assertThat(topology.routes()).isEmpty();
        assertThat(topology.subscriptionsFor("user.created")).isEmpty();
        assertThat(topology.hasSubscription("mailer")).isFalse();
        assertThat(topology.routes("mailer", "user.created")).isFalse();
        assertThat(BusTopology.of(Map.of())).isEqualTo(topology);
        assertThat(BusTopology.builder().build()).isEqualTo(topology);
    }

    @Test
    void subscriptionNamesAreSortedWhateverTheInputOrder() {
        Map<String, List<String>> routes = new LinkedHashMap<>();
        routes.put("zeta", List.of("a"));
        routes.put("Alpha", List.of("a"));
        routes.put("mid", List.of("a"));
        routes.put("alpha", List.of("a"));

        BusTopology topology = BusTopology.of(routes);

        assertThat(topology.subscriptionNames()).containsExactly("Alpha", "alpha", "mid", "zeta");
        assertThat(topology.routes().keySet()).containsExactly("Alpha", "alpha", "mid", "zeta");
    }

    @Test
    void subscriptionsForATypeAreSortedAndIncludeTheWildcardOnes() {
        BusTopology topology = BusTopology.builder()
                .route("mailer", "user.created")
                .route("audit", BusTopology.WILDCARD)
                .route("billing", "order.placed", "user.created")
                .route("crm", "user.created")
                .build();

        assertThat(topology.subscriptionsFor("user.created")).containsExactly("audit", "billing", "crm", "mailer");
        assertThat(topology.subscriptionsFor("order.placed")).containsExactly("audit", "billing");
    }

    @Test
    void anUnknownTypeGoesOnlyToWildcardSubscriptions() {
        BusTopology topology = BusTopology.builder()
                .route("mailer", "user.created")
                .route("zz-archive", "*")
                .route("audit", "*")
                .build();

        assertThat(topology.subscriptionsFor("never.routed")).containsExactly("audit", "zz-archive");
        assertThat(topology.routes("mailer", "never.routed")).isFalse();
        assertThat(topology.routes("audit", "never.routed")).isTrue();
        assertThat(BusTopology.builder().route("mailer", "user.created").build().subscriptionsFor("never.routed"))
                .isEmpty();
    }

    @Test
    void routesTellsExactAndWildcardRoutesApart() {
        BusTopology topology = BusTopology.builder()
                .route("mailer", "user.created")
                .route("audit", "*")
                .build();

        assertThat(topology.routes("mailer", "user.created")).isTrue();
        assertThat(topology.routes("mailer", "order.placed")).isFalse();
        assertThat(topology.routes("audit", "user.created")).isTrue();
        assertThat(topology.routes("audit", "order.placed")).isTrue();
        assertThat(topology.routes("unknown", "user.created")).as("an unknown subscription receives nothing")
                .isFalse();
    }

    @Test
    void hasSubscriptionKnowsOnlyTheNamedSubscriptions() {
        BusTopology topology = BusTopology.builder().route("mailer", "user.created").build();

        assertThat(topology.hasSubscription("mailer")).isTrue();
        assertThat(topology.hasSubscription("Mailer")).as("names are case-sensitive").isFalse();
        assertThat(topology.hasSubscription("not a valid name")).isFalse();
    }

    @Test
    void classPatternsStandForTheTypeNameTheyDeclare() {
        BusTopology topology = BusTopology.builder()
                .route("mailer", UserCreated.class)
                .route("billing", OrderPlaced.class)
                .build();

        assertThat(topology.routes()).containsExactly(
                Map.entry("billing", Set.of("OrderPlaced")),
                Map.entry("mailer", Set.of("user.created")));
        assertThat(topology.subscriptionsFor("user.created")).containsExactly("mailer");
        assertThat(topology.subscriptionsFor("OrderPlaced")).as("an un-annotated class routes by its simple name")
                .containsExactly("billing");
        assertThat(topology.subscriptionsFor("UserCreated")).as("an annotated class routes by its declared name")
                .isEmpty();
    }

    @Test
    void ofAcceptsClassesNamesAndTheWildcardMixed() {
        BusTopology topology = BusTopology.of(Map.of(
                "mailer", List.of(UserCreated.class, "user.deleted"),
                "audit", Set.of("*")));

        assertThat(topology.routes()).containsExactly(
                Map.entry("audit", Set.of("*")),
                Map.entry("mailer", Set.of("user.created", "user.deleted")));
        assertThat(topology).isEqualTo(BusTopology.builder()
                .route("mailer", "user.deleted")
                .route("audit", "*")
                .route("mailer", UserCreated.class)
                .build());
    }

    @Test
    void duplicatePatternsCollapse() {
        BusTopology topology = BusTopology.builder()
                .route("mailer", "user.created", UserCreated.class, "user.created")
                .route("mailer", "user.created")
                .route("audit", "*", "*")
                .build();

        assertThat(topology.routes()).containsExactly(
                Map.entry("audit", Set.of("*")),
                Map.entry("mailer", Set.of("user.created")));
        assertThat(topology.subscriptionsFor("user.created")).containsExactly("audit", "mailer");
        assertThat(topology).isEqualTo(BusTopology.of(Map.of("mailer", List.of("user.created"),
                "audit", List.of("*"))));
    }

    @Test
    void repeatedBuilderCallsAddToTheSameSubscription() {
        BusTopology topology = BusTopology.builder()
                .route("mailer", "user.created")
                .route("mailer", "user.deleted")
                .build();

        assertThat(topology.subscriptionNames()).containsExactly("mailer");
        assertThat(topology.routes().get("mailer")).containsExactly("user.created", "user.deleted");
    }

    @Test
    void routesAreSortedAtEveryLevel() {
        BusTopology topology = BusTopology.builder()
                .route("zeta", "c", "a", "*", "b")
                .route("alpha", "y", "x")
                .build();

        assertThat(topology.routes().keySet()).containsExactly("alpha", "zeta");
        assertThat(topology.routes().get("alpha")).containsExactly("x", "y");
        assertThat(topology.routes().get("zeta")).containsExactly("*", "a", "b", "c");
    }

    @Test
    void laterChangesToTheInputHaveNoEffect() {
        List<Object> patterns = new ArrayList<>(List.of("user.created"));
        Map<String, List<Object>> routes = new HashMap<>();
        routes.put("mailer", patterns);
        BusTopology topology = BusTopology.of(routes);

        patterns.add("order.placed");
        routes.put("audit", List.of("*"));

        assertThat(topology.subscriptionNames()).containsExactly("mailer");
        assertThat(topology.routes()).containsExactly(Map.entry("mailer", Set.of("user.created")));
        assertThat(topology.subscriptionsFor("order.placed")).isEmpty();
    }

    @Test
    void laterBuilderCallsDoNotChangeABuiltTopology() {
        BusTopology.Builder builder = BusTopology.builder().route("mailer", "user.created");
        BusTopology first = builder.build();

        builder.route("mailer", "user.deleted").route("audit", "*");

        assertThat(first.routes()).containsExactly(Map.entry("mailer", Set.of("user.created")));
        assertThat(builder.build().subscriptionNames()).containsExactly("audit", "mailer");
    }

    @Test
    void everyViewIsUnmodifiable() {
        BusTopology topology = BusTopology.builder().route("mailer", "user.created").route("audit", "*").build();

        assertThatThrownBy(() -> topology.subscriptionNames().add("x"))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> topology.subscriptionsFor("user.created").clear())
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> topology.subscriptionsFor("unknown").add("x"))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> topology.routes().put("x", Set.of("y")))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> topology.routes().get("mailer").add("user.deleted"))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThat(topology.routes("mailer", "user.deleted")).isFalse();
    }

    @Test
    void withRouteAddsARouteAndLeavesTheOriginalUnchanged() {
        BusTopology original = BusTopology.builder().route("mailer", "user.created").build();

        BusTopology extended = original.withRoute("mailer", "user.deleted").withRoute("audit", "*");

        assertThat(original.routes()).containsExactly(Map.entry("mailer", Set.of("user.created")));
        assertThat(original.subscriptionsFor("user.deleted")).isEmpty();
        assertThat(extended.routes()).containsExactly(
                Map.entry("audit", Set.of("*")),
                Map.entry("mailer", Set.of("user.created", "user.deleted")));
        assertThat(extended.subscriptionsFor("user.deleted")).containsExactly("audit", "mailer");
        assertThat(extended.subscriptionsFor("anything")).containsExactly("audit");
        assertThat(original.withRoute("mailer", "user.created")).as("a route already present changes nothing")
                .isEqualTo(original);
        assertThat(BusTopology.empty().withRoute("mailer", "user.created")).isEqualTo(original);
        assertThat(BusTopology.empty().routes()).isEmpty();
    }

    @Test
    void withRouteValidatesLikeTheBuilder() {
        BusTopology topology = BusTopology.builder().route("mailer", "user.created").build();

        assertThatThrownBy(() -> topology.withRoute("bad name", "user.created"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("subscription 'bad name'");
        assertThatThrownBy(() -> topology.withRoute("mailer", "user.*"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("mailer").hasMessageContaining("user.*");
        assertThatThrownBy(() -> topology.withRoute("mailer", " "))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("mailer").hasMessageContaining("blank");
        assertThat(topology.routes()).containsExactly(Map.entry("mailer", Set.of("user.created")));
    }

    @Test
    void invalidSubscriptionNamesAreRefused() {
        for (String name : List.of("", " ", "has space", "-leading-dash", "_leading", ".leading", "star*", "a/b",
                "ü")) {
            assertThatThrownBy(() -> BusTopology.builder().route(name, "user.created"))
                    .as("builder refuses '%s'", name)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("subscription '" + name + "'");
            assertThatThrownBy(() -> BusTopology.of(Map.of(name, List.of("user.created"))))
                    .as("of refuses '%s'", name)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("subscription '" + name + "'");
        }
        assertThat(BusTopology.builder().route("A1_b.c-d", "x").build().subscriptionNames())
                .containsExactly("A1_b.c-d");
    }

    @Test
    void aStarInsideAPatternIsRefused() {
        for (String pattern : List.of("user.*", "*.created", "**", "a*b", " *", "* ")) {
            assertThatThrownBy(() -> BusTopology.builder().route("mailer", pattern))
                    .as("builder refuses '%s'", pattern)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("subscription 'mailer'").hasMessageContaining("'" + pattern + "'");
            assertThatThrownBy(() -> BusTopology.of(Map.of("mailer", List.of(pattern))))
                    .as("of refuses '%s'", pattern)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("subscription 'mailer'").hasMessageContaining("'" + pattern + "'");
        }
    }

    @Test
    void blankPatternsAreRefused() {
        for (String pattern : List.of("", " ", "\t")) {
            assertThatThrownBy(() -> BusTopology.builder().route("mailer", pattern))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("subscription 'mailer'").hasMessageContaining("blank");
        }
    }

    @Test
    void aSubscriptionNeedsAtLeastOnePattern() {
        assertThatThrownBy(() -> BusTopology.of(Map.of("mailer", List.of())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("subscription 'mailer'").hasMessageContaining("at least one pattern");
        assertThatThrownBy(() -> BusTopology.builder().route("mailer"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("subscription 'mailer'").hasMessageContaining("at least one pattern");
        Map<String, List<String>> nullPatterns = new HashMap<>();
        nullPatterns.put("mailer", null);
        assertThatThrownBy(() -> BusTopology.of(nullPatterns))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("subscription 'mailer'");
    }

    @Test
    void patternsOfOtherKindsAreRefusedByName() {
        assertThatThrownBy(() -> BusTopology.builder().route("mailer", 42))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("subscription 'mailer'").hasMessageContaining("'42'");
        List<Object> withNull = new ArrayList<>();
        withNull.add(null);
        assertThatThrownBy(() -> BusTopology.of(Map.of("mailer", withNull)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("subscription 'mailer'").hasMessageContaining("null pattern");
        assertThatThrownBy(() -> BusTopology.builder().route("mailer", NotAnEvent.class))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("subscription 'mailer'").hasMessageContaining(NotAnEvent.class.getName());
    }

    @Test
    void aFailedBuilderCallAddsNothing() {
        BusTopology.Builder builder = BusTopology.builder().route("mailer", "user.created");

        assertThatThrownBy(() -> builder.route("mailer", "user.deleted", "user.*"))
                .isInstanceOf(IllegalArgumentException.class);

        assertThat(builder.build().routes()).containsExactly(Map.entry("mailer", Set.of("user.created")));
    }

    @Test
    void equalRoutesMakeEqualTopologies() {
        BusTopology built = BusTopology.builder().route("mailer", UserCreated.class).route("audit", "*").build();
        BusTopology mapped = BusTopology.of(Map.of("audit", List.of("*"), "mailer", List.of("user.created")));

        assertThat(built).isEqualTo(mapped).hasSameHashCodeAs(mapped);
        assertThat(built).isNotEqualTo(mapped.withRoute("mailer", "user.deleted"));
        assertThat(built).hasToString("BusTopology{audit=[*], mailer=[user.created]}");
    }
}
