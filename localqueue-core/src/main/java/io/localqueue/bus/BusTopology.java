package io.localqueue.bus;

import io.localqueue.InvalidArgumentException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * Which subscriptions receive which events: a static map from subscription name to the patterns it routes, each an
 * exact event type name, an event class (standing for the type name it declares) or the wildcard {@code "*"}, which
 * routes every event type, including one no route names. Topologies are immutable values, safe to share between
 * threads: the input is copied and normalized when the topology is made, duplicate patterns collapse, and the
 * subscriptions of every event type are computed once, so dispatch looks them up without sorting.
 *
 * <pre>{@code
 * BusTopology topology = BusTopology.builder()
 *         .route("mailer", UserCreated.class)
 *         .route("audit", BusTopology.WILDCARD)
 *         .build();
 * topology.subscriptionsFor("user.created"); // [audit, mailer]
 * }</pre>
 *
 * @since 0.1.0
 */
public final class BusTopology {

    /** The pattern that routes every event type to its subscription; {@code *} may appear in no other pattern. */
    public static final String WILDCARD = "*";

    private static final BusTopology EMPTY = new BusTopology(new TreeMap<>());

    private final SortedMap<String, Set<String>> routes;
    private final List<String> subscriptionNames;
    private final List<String> wildcardSubscriptions;
    private final Map<String, List<String>> subscriptionsByType;

    /** Makes a topology of routes already validated and normalized, copying them: the caller's map is not kept. */
    private BusTopology(SortedMap<String, ? extends Set<String>> normalized) {
        TreeMap<String, Set<String>> frozen = new TreeMap<>();
        List<String> wildcard = new ArrayList<>();
        Map<String, List<String>> exact = new HashMap<>();
        for (Map.Entry<String, ? extends Set<String>> route : normalized.entrySet()) {
            String subscription = route.getKey();
            frozen.put(subscription, Collections.unmodifiableSortedSet(new TreeSet<>(route.getValue())));
            for (String pattern : route.getValue()) {
                if (pattern.equals(WILDCARD)) {
                    wildcard.add(subscription);
                } else {
                    exact.computeIfAbsent(pattern, type -> new ArrayList<>()).add(subscription);
                }
            }
        }
        this.routes = Collections.unmodifiableSortedMap(frozen);
        this.subscriptionNames = List.copyOf(frozen.keySet());
        this.wildcardSubscriptions = List.copyOf(wildcard);
        Map<String, List<String>> byType = new HashMap<>();
        for (Map.Entry<String, List<String>> type : exact.entrySet()) {
            TreeSet<String> subscriptions = new TreeSet<>(type.getValue());
            subscriptions.addAll(wildcard);
            byType.put(type.getKey(), List.copyOf(subscriptions));
        }
        this.subscriptionsByType = Map.copyOf(byType);
    }

    /**
     * Returns the topology without subscriptions, which routes every event type nowhere.
     *
     * @return the empty topology
     */
    public static BusTopology empty() {
        return EMPTY;
    }

    /**
     * Returns the topology of a map from subscription name to patterns, copied so that later changes to the map or
     * its collections have no effect; a subscription with no pattern is refused rather than routing nothing.
     *
     * @param routes each subscription's patterns: event classes, exact event type names or {@link #WILDCARD}
     * @return the topology
     * @throws IllegalArgumentException when a subscription name is invalid, a subscription has no pattern, or a
     *         pattern is null, blank, holds {@code *} without being the wildcard, is an invalid event class or is of
     *         another type; the message names the subscription and the pattern
     */
    public static BusTopology of(Map<String, ? extends Collection<?>> routes) {
        if (routes == null) {
            throw new InvalidArgumentException("routes", "routes must not be null");
        }
        TreeMap<String, TreeSet<String>> normalized = new TreeMap<>();
        for (Map.Entry<String, ? extends Collection<?>> route : routes.entrySet()) {
            String subscription = Names.requireValid(route.getKey(), "subscription");
            Collection<?> patterns = route.getValue();
            if (patterns == null || patterns.isEmpty()) {
                throw noPattern(subscription);
            }
            TreeSet<String> normalizedPatterns = new TreeSet<>();
            for (Object pattern : patterns) {
                normalizedPatterns.add(normalize(subscription, pattern));
            }
            normalized.put(subscription, normalizedPatterns);
        }
        return normalized.isEmpty() ? EMPTY : new BusTopology(normalized);
    }

    /**
     * Returns a builder of a topology, to which the routes of one subscription may be added in several calls.
     *
     * @return an empty builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Returns the names of all subscriptions, sorted; empty for the empty topology.
     *
     * @return the names, sorted and unmodifiable
     */
    public List<String> subscriptionNames() {
        return subscriptionNames;
    }

    /**
     * Returns the subscriptions that receive an event type, sorted: those that route it exactly and those with the
     * wildcard, so a type no route names goes to the wildcard subscriptions only.
     *
     * @param eventType the event type name
     * @return the subscriptions, sorted and unmodifiable; empty when none receives the type
     * @throws IllegalArgumentException when {@code eventType} is null
     */
    public List<String> subscriptionsFor(String eventType) {
        if (eventType == null) {
            throw new InvalidArgumentException("eventType", "eventType must not be null");
        }
        List<String> subscriptions = subscriptionsByType.get(eventType);
        return subscriptions != null ? subscriptions : wildcardSubscriptions;
    }

    /**
     * Tells whether the topology has a subscription of that name; an invalid name is simply absent.
     *
     * @param name the subscription name
     * @return whether the subscription exists
     * @throws IllegalArgumentException when {@code name} is null
     */
    public boolean hasSubscription(String name) {
        if (name == null) {
            throw new InvalidArgumentException("name", "name must not be null");
        }
        return routes.containsKey(name);
    }

    /**
     * Tells whether a subscription receives an event type, by an exact route or by the wildcard; an unknown
     * subscription receives nothing.
     *
     * @param subscription the subscription name
     * @param eventType the event type name
     * @return whether events of that type go to the subscription
     * @throws IllegalArgumentException when an argument is null
     */
    public boolean routes(String subscription, String eventType) {
        if (subscription == null) {
            throw new InvalidArgumentException("subscription", "subscription must not be null");
        }
        if (eventType == null) {
            throw new InvalidArgumentException("eventType", "eventType must not be null");
        }
        Set<String> patterns = routes.get(subscription);
        return patterns != null && (patterns.contains(eventType) || patterns.contains(WILDCARD));
    }

    /**
     * Returns every subscription's normalized patterns, classes replaced by their event type names and duplicates
     * collapsed; empty for the empty topology.
     *
     * @return the routes, sorted by subscription and by pattern, unmodifiable at every level
     */
    public Map<String, Set<String>> routes() {
        return routes;
    }

    /**
     * Returns a topology with one more route, leaving this one unchanged; the subscription is created when absent,
     * and a route already present gives an equal topology.
     *
     * @param subscription the subscription name
     * @param eventType the exact event type name, or {@link #WILDCARD}
     * @return the new topology
     * @throws IllegalArgumentException when the subscription name is invalid, or the event type is null, blank or
     *         holds {@code *} without being the wildcard; the message names the subscription and the event type
     */
    public BusTopology withRoute(String subscription, String eventType) {
        String name = Names.requireValid(subscription, "subscription");
        String pattern = normalize(name, eventType);
        Set<String> present = routes.get(name);
        if (present != null && present.contains(pattern)) {
            return this;
        }
        TreeMap<String, TreeSet<String>> extended = new TreeMap<>();
        routes.forEach((existing, patterns) -> extended.put(existing, new TreeSet<>(patterns)));
        extended.computeIfAbsent(name, absent -> new TreeSet<>()).add(pattern);
        return new BusTopology(extended);
    }

    /**
     * Tells whether another object is a topology with the same normalized routes, however each was made.
     *
     * @param other the object to compare
     * @return whether the routes are equal
     */
    @Override
    public boolean equals(@Nullable Object other) {
        return other instanceof BusTopology that && routes.equals(that.routes);
    }

    /**
     * Returns a hash of the normalized routes, equal for equal topologies however each was made.
     *
     * @return the hash
     */
    @Override
    public int hashCode() {
        return routes.hashCode();
    }

    /**
     * Returns the normalized routes, sorted, as in {@code BusTopology{audit=[*], mailer=[user.created]}}.
     *
     * @return the description
     */
    @Override
    public String toString() {
        return "BusTopology" + routes;
    }

    private static String normalize(String subscription, @Nullable Object pattern) {
        if (pattern == null) {
            throw new IllegalArgumentException("subscription '" + subscription + "' has a null pattern");
        }
        if (pattern instanceof Class<?> type) {
            try {
                return EventType.of(type).name();
            } catch (IllegalArgumentException invalid) {
                throw new IllegalArgumentException("subscription '" + subscription + "' has an invalid pattern "
                        + type.getName() + ": " + invalid.getMessage(), invalid);
            }
        }
        if (pattern instanceof String name) {
            if (name.isBlank()) {
                throw new IllegalArgumentException("subscription '" + subscription + "' has a blank pattern '"
                        + name + "'");
            }
            if (name.contains(WILDCARD) && !name.equals(WILDCARD)) {
                throw new IllegalArgumentException("subscription '" + subscription + "' has an invalid pattern '"
                        + name + "': '*' may only stand alone, as the wildcard that routes every event type");
            }
            return name;
        }
        throw new IllegalArgumentException("subscription '" + subscription + "' has an invalid pattern '" + pattern
                + "' of " + pattern.getClass().getName() + ": a pattern is an event class, an event type name or '"
                + WILDCARD + "'");
    }

    private static IllegalArgumentException noPattern(String subscription) {
        return new IllegalArgumentException("subscription '" + subscription + "' needs at least one pattern");
    }

    /**
     * Collects routes for a topology; each call validates its patterns at once, and a builder may go on after
     * {@link #build()} without changing the topologies already built. A builder is not thread-safe.
     *
     * @since 0.1.0
     */
    public static final class Builder {

        private final TreeMap<String, TreeSet<String>> routes = new TreeMap<>();

        private Builder() {
        }

        /**
         * Adds patterns to a subscription, creating it on its first call; a call without patterns is refused
         * rather than creating a subscription that receives nothing.
         *
         * @param subscription the subscription name
         * @param patterns event classes, exact event type names or {@link #WILDCARD}; at least one
         * @return this builder
         * @throws IllegalArgumentException when the subscription name is invalid, no pattern is given, or a pattern
         *         is null, blank, holds {@code *} without being the wildcard, is an invalid event class or is of
         *         another type; the message names the subscription and the pattern, and nothing is added
         */
        public Builder route(String subscription, Object... patterns) {
            String name = Names.requireValid(subscription, "subscription");
            if (patterns == null || patterns.length == 0) {
                throw noPattern(name);
            }
            List<String> normalized = new ArrayList<>(patterns.length);
            for (Object pattern : patterns) {
                normalized.add(normalize(name, pattern));
            }
            routes.computeIfAbsent(name, absent -> new TreeSet<>()).addAll(normalized);
            return this;
        }

        /**
         * Returns the topology of the routes added so far; with none it is the empty topology.
         *
         * @return the topology, independent of later calls to this builder
         */
        public BusTopology build() {
            return routes.isEmpty() ? EMPTY : new BusTopology(routes);
        }
    }
}
