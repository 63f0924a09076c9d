package io.localqueue.internal.store;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The order claimed rows are handed out in: priority, then due time, then id. An {@code UPDATE … RETURNING} gives its
 * rows in no particular order, so every store sorts what it leased with this.
 */
public final class ClaimOrder {

    private static final Comparator<ClaimedRow> ORDER = Comparator.comparingInt(ClaimedRow::priority)
            .thenComparingLong(ClaimedRow::dueAt).thenComparingLong(ClaimedRow::id);

    private ClaimOrder() {
    }

    /**
     * Sorts rows just leased into claim order.
     *
     * @param rows the rows, as the statements returned them
     * @return the rows in claim order; the same list when it holds fewer than two
     */
    public static List<ClaimedRow> sorted(List<ClaimedRow> rows) {
        if (rows.size() < 2) {
            return rows;
        }
        List<ClaimedRow> sorted = new ArrayList<>(rows);
        sorted.sort(ORDER);
        return sorted;
    }
}
