package io.localqueue.cli;

import io.localqueue.Job;
import io.localqueue.JobOutcome;
import io.localqueue.LocalQueueDatabase;
import io.localqueue.SimpleQueue;
import io.localqueue.Worker;
import io.localqueue.WorkerObserver;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * The application beside the command line in its own JVM: puts {@code jobs} jobs into the queue "work" while a Worker
 * of two threads handles them, and ends with status 0 once every one is acknowledged. Any failure a caller would see
 * (a put or a settlement refused by a busy file, a handler error, a lost lease) ends it with status 1.
 */
final class WorkerChild {

    static final String QUEUE = "work";
    static final String READY = "READY";
    static final String DONE = "DONE";

    private WorkerChild() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int jobs = Integer.parseInt(args[1]);
        CountDownLatch finished = new CountDownLatch(jobs);
        AtomicReference<String> trouble = new AtomicReference<>();
        try (LocalQueueDatabase database = LocalQueueDatabase.open(dir);
             SimpleQueue<Integer> queue = SimpleQueue.builder(database, io.localqueue.JsonSerializer.of(Integer.class))
                     .name(QUEUE).build();
             Worker<Integer> worker = Worker.builder(queue, (Job<Integer> job) -> Thread.sleep(2))
                     .concurrency(2).pollInterval(Duration.ofMillis(50)).observer(new WorkerObserver() {
                         @Override
                         public void jobFinished(Job<?> job, JobOutcome outcome, Duration handlerTime,
                                                 @Nullable Throwable error) {
                             if (error != null) {
                                 trouble.compareAndSet(null, "job " + job.id() + ": " + error);
                             }
                             finished.countDown();
                         }

                         @Override
                         public void leaseExpired(String queueName, long jobId, int attempts, boolean deadLettered) {
                             trouble.compareAndSet(null, "lease of job " + jobId + " expired");
                         }
                     }).build()) {
            worker.start();
            System.out.println(READY);
            System.out.flush();
            for (int i = 0; i < jobs; i++) {
                queue.put(i);
                if (i % 20 == 0) {
                    Thread.sleep(5);
                }
            }
            if (!finished.await(120, TimeUnit.SECONDS)) {
                trouble.compareAndSet(null, finished.getCount() + " jobs never finished");
            }
        } catch (Exception failure) {
            failure.printStackTrace();
            System.exit(1);
        }
        if (trouble.get() != null) {
            System.err.println(trouble.get());
            System.exit(1);
        }
        System.out.println(DONE);
        System.exit(0);
    }
}
