package io.localqueue.benchmark;

import io.localqueue.Job;
import io.localqueue.JobOutcome;
import io.localqueue.LeaseExpiredException;
import io.localqueue.SimpleQueue;
import io.localqueue.Worker;
import io.localqueue.WorkerObserver;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * A soak consumer: a {@link Worker} whose handler logs each execution as it starts, works for a few milliseconds
 * (sleeps: the work itself) and then, by chance, returns (an ack), throws a transient error (a nack) or a permanent
 * error (a dead letter), or first works past its lease (its result is discarded); jobs whose key is a poison key
 * always throw transiently. Its observer logs each outcome once committed, and acknowledges some acked deliveries a
 * second time, logging whether that was refused. Prints {@code READY} once running and, on {@code STOP}, stops the
 * worker and prints {@code DONE}.
 *
 * <p>Log lines: {@code S <id> <attempts> <receipt> <key> <decision>} when an execution starts, then one of
 * {@code A} (acked), {@code R} (retried), {@code D} (dead-lettered), {@code X} (discarded) or {@code L} (released)
 * {@code <id> <attempts>},
 * and {@code RR <id>} (second ack refused) or {@code RA <id>} (second ack accepted, which must never happen).
 */
final class SoakConsumerChild {

    static final String ROLE = "soak-consumer";

    static final String OK = "ok";
    static final String NACK = "nack";
    static final String FAIL = "fail";
    static final String SLOW = "slow";
    static final String POISON = "poison";

    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

    private SoakConsumerChild() {
    }

    /** Whether the job with {@code key} always fails transiently. */
    static boolean isPoison(String key, long poisonEvery) {
        return Math.floorMod(key.hashCode(), poisonEvery) == 0;
    }

    static void run(ChildSettings settings, ChildMain.ChildIo io) throws Exception {
        try (SimpleQueue<String> queue = SoakQueue.open(settings);
             LineLog log = LineLog.create(Path.of(settings.text("log")))) {
            ExecutorService secondAcks = Executors.newSingleThreadExecutor();
            Worker<String> worker = Worker.builder(queue, new Handler(settings, log)::handle)
                    .concurrency((int) settings.number("concurrency"))
                    .permanentErrors(InjectedPermanentFailure.class)
                    .observer(new Outcomes(queue, log, secondAcks, settings.number("reackEvery")))
                    .build();
            worker.start();
            io.emit("READY");
            io.await("STOP");
            worker.stop(STOP_TIMEOUT);
            secondAcks.shutdown();
            secondAcks.awaitTermination(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            io.emit("DONE");
        }
    }

    /** Logs the start of an execution, then does what chance (or a poison key) decides. */
    private record Handler(double nackShare, double failShare, double slowShare, long poisonEvery, long slowMillis,
                           long workMillis, LineLog log) {

        Handler(ChildSettings settings, LineLog log) {
            this(Double.parseDouble(settings.text("nackShare")), Double.parseDouble(settings.text("failShare")),
                    Double.parseDouble(settings.text("slowShare")), settings.number("poisonEvery"),
                    settings.number("slowMillis"), settings.number("workMillis"), log);
        }

        void handle(Job<String> job) throws InterruptedException {
            String decision = decide(job.data());
            log.line("S " + job.id() + " " + job.attempts() + " " + job.receipt() + " " + job.data() + " "
                    + decision);
            long work = decision.equals(SLOW) ? slowMillis : ThreadLocalRandom.current().nextLong(workMillis + 1);
            Thread.sleep(work); // the work itself
            switch (decision) {
                case NACK, POISON -> throw new IllegalStateException("injected transient failure");
                case FAIL -> throw new InjectedPermanentFailure();
                default -> { }
            }
        }

        private String decide(String key) {
            if (isPoison(key, poisonEvery)) {
                return POISON;
            }
            double draw = ThreadLocalRandom.current().nextDouble();
            if (draw < nackShare) {
                return NACK;
            }
            if (draw < nackShare + failShare) {
                return FAIL;
            }
            return draw < nackShare + failShare + slowShare ? SLOW : OK;
        }
    }

    /** Logs every committed outcome and acknowledges one acked delivery in {@code reackEvery} again. */
    private static final class Outcomes implements WorkerObserver {

        private final SimpleQueue<String> queue;
        private final LineLog log;
        private final ExecutorService secondAcks;
        private final long reackEvery;
        private final AtomicLong acked = new AtomicLong();

        Outcomes(SimpleQueue<String> queue, LineLog log, ExecutorService secondAcks, long reackEvery) {
            this.queue = queue;
            this.log = log;
            this.secondAcks = secondAcks;
            this.reackEvery = reackEvery;
        }

        @Override
        @SuppressWarnings("unchecked")
        public void jobFinished(Job<?> job, JobOutcome outcome, Duration handlerTime, @Nullable Throwable error) {
            String letter = switch (outcome) {
                case ACKED -> "A";
                case RETRIED -> "R";
                case DEAD_LETTERED -> "D";
                case DISCARDED -> "X";
                case RELEASED -> "L"; // a graceful stop's hand-back; the soak only ever kills consumers
            };
            log.line(letter + " " + job.id() + " " + job.attempts());
            if (outcome == JobOutcome.ACKED && acked.incrementAndGet() % reackEvery == 0) {
                secondAcks.execute(() -> ackAgain((Job<String>) job));
            }
        }

        private void ackAgain(Job<String> job) {
            try {
                queue.ack(job);
                log.line("RA " + job.id());
            } catch (LeaseExpiredException refused) {
                log.line("RR " + job.id());
            }
        }
    }

    /** The permanent error a handler throws when chance says so. */
    static final class InjectedPermanentFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        InjectedPermanentFailure() {
            super("injected permanent failure");
        }
    }
}
