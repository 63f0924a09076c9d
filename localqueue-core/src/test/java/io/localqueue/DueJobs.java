package io.localqueue;

import java.util.ArrayList;
import java.util.List;

/** Claims every job a queue has due right now, in claim order. */
public final class DueJobs {

    private DueJobs() {
    }

    /** Claims with {@code getNowait} until the queue has nothing due and returns the claimed jobs. */
    public static <T> List<Job<T>> claimAll(SimpleQueue<T> queue) {
        List<Job<T>> jobs = new ArrayList<>();
        while (true) {
            try {
                jobs.add(queue.getNowait());
            } catch (QueueEmptyException empty) {
                return jobs;
            }
        }
    }
}
