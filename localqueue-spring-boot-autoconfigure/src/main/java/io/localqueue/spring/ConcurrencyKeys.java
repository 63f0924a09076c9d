package io.localqueue.spring;

import io.localqueue.EnqueueItem;
import io.localqueue.InvalidArgumentException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.expression.EvaluationContext;
import org.springframework.expression.EvaluationException;
import org.springframework.expression.Expression;
import org.springframework.expression.ParseException;
import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.expression.spel.support.DataBindingPropertyAccessor;
import org.springframework.expression.spel.support.MapAccessor;
import org.springframework.expression.spel.support.SimpleEvaluationContext;

/**
 * The concurrency keys {@link LocalQueueTemplate} reads from payloads, one SpEL expression per queue that has one
 * ({@code localqueue.queues.<name>.concurrency-key}), evaluated against the payload in a read-only context: it reads
 * properties, record components (as methods) and map entries, and can call no constructor, type or bean. A job
 * written with a key of its own keeps it; a null result leaves the job without one.
 */
final class ConcurrencyKeys {

    private static final SpelExpressionParser PARSER = new SpelExpressionParser();

    private final Map<String, Expression> expressions;

    private ConcurrencyKeys(Map<String, Expression> expressions) {
        this.expressions = expressions;
    }

    /** The expressions of the settings' queues. */
    static ConcurrencyKeys of(QueueSettings settings) {
        Map<String, Expression> expressions = new HashMap<>();
        for (String queue : settings.configuredQueues()) {
            String expression = settings.concurrencyKeyFor(queue);
            if (expression != null) {
                expressions.put(queue, parse(queue, expression));
            }
        }
        return new ConcurrencyKeys(Map.copyOf(expressions));
    }

    /**
     * Parses a queue's expression.
     *
     * @throws IllegalArgumentException when it is blank or does not parse
     */
    static Expression parse(String queue, @Nullable String expression) {
        if (expression == null || expression.isBlank()) {
            throw new IllegalArgumentException("the concurrency key of queue '" + queue + "' must not be blank");
        }
        try {
            return PARSER.parseExpression(expression);
        } catch (ParseException bad) {
            throw new IllegalArgumentException("the concurrency key of queue '" + queue + "' is not a SpEL "
                    + "expression: " + bad.getMessage(), bad);
        }
    }

    /**
     * Gives the items without a concurrency key the one the queue's expression reads from their payload.
     *
     * @return the items, the same list when the queue has no expression
     * @throws IllegalArgumentException when the expression cannot be read from a payload
     */
    List<EnqueueItem<Object>> keyed(String queue, List<EnqueueItem<Object>> items) {
        Expression expression = expressions.get(queue);
        if (expression == null) {
            return items;
        }
        List<EnqueueItem<Object>> keyed = new ArrayList<>(items.size());
        for (EnqueueItem<Object> item : items) {
            String key = item == null || item.options().concurrencyKey() != null ? null
                    : keyOf(queue, expression, item.data());
            keyed.add(key == null ? item : withKey(queue, expression, item, key));
        }
        return keyed;
    }

    private static EnqueueItem<Object> withKey(String queue, Expression expression, EnqueueItem<Object> item,
                                               String key) {
        try {
            return item.withOptions(item.options().concurrencyKey(key));
        } catch (InvalidArgumentException refused) {
            throw new IllegalArgumentException(described(queue, expression) + " read from a "
                    + item.data().getClass().getName() + " is not a key: " + refused.getMessage()
                    + "; have the expression give null for a job without one", refused);
        }
    }

    private static @Nullable String keyOf(String queue, Expression expression, Object payload) {
        EvaluationContext context = SimpleEvaluationContext
                .forPropertyAccessors(DataBindingPropertyAccessor.forReadOnlyAccess(), new MapAccessor())
                .withInstanceMethods().withRootObject(payload).build();
        try {
            Object key = expression.getValue(context);
            return key == null ? null : key.toString();
        } catch (EvaluationException unreadable) {
            throw new IllegalArgumentException(described(queue, expression) + " cannot be read from a "
                    + payload.getClass().getName() + ": " + unreadable.getMessage(), unreadable);
        }
    }

    /** Names the expression and the property that set it, for a failed write. */
    private static String described(String queue, Expression expression) {
        return "the concurrency key of queue '" + queue + "' (" + expression.getExpressionString()
                + ", localqueue.queues." + queue + ".concurrency-key)";
    }
}
