package io.localqueue.internal.store;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The order claimed rows are handed out in: due time, then id. An {@code UPDATE … RETURNING} gives its rows in no
 * particular order, so every store sorts what it leased with this.
 */
public final class ClaimOrder {

    private ClaimOrder() {
    }

    /**
     * Sorts rows just leased into claim order.
     *
     * @param rows the rows, as the statement returned them
     * @param dueTimes each row's due time, at the same index
     * @return the rows in claim order; the same list when it holds fewer than two
     */
    public static List<ClaimedRow> sorted(List<ClaimedRow> rows, List<Long> dueTimes) {
        if (rows.size() < 2) {
            return rows;
        }
        List<Integer> order = new ArrayList<>(rows.size());
        for (int i = 0; i < rows.size(); i++) {
            order.add(i);
        }
        order.sort(Comparator.<Integer>comparingLong(dueTimes::get).thenComparingLong(i -> rows.get(i).id()));
        List<ClaimedRow> sorted = new ArrayList<>(rows.size());
        for (int index : order) {
            sorted.add(rows.get(index));
        }
        return sorted;
    }
}
