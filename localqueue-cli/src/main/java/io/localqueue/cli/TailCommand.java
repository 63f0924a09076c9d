package io.localqueue.cli;

import io.localqueue.LocalQueueDatabase;
import io.localqueue.QueueStats;
import io.localqueue.SimpleQueue;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code localqueue tail}: follows a queue until Ctrl-C (or {@code --for}), printing a line whenever its counts move:
 * jobs put, claimed, acknowledged, failed or retried show as changes of ready, leased, acked and dead. Between looks it
 * holds no connection, so it never stands in another process's way.
 */
@Command(name = "tail", mixinStandardHelpOptions = true,
        description = "Follows a queue until Ctrl-C: a line each time its ready, leased, acked or dead counts move.")
final class TailCommand extends TargetCommand {

    @Option(names = "--queue", required = true, paramLabel = "NAME", description = "The queue.")
    String queue;

    @Option(names = "--interval", paramLabel = "DURATION", defaultValue = "1s",
            converter = Arguments.DurationConverter.class,
            description = "How often to look (default: ${DEFAULT-VALUE}); a file of another layout is copied each "
                    + "time, so give it a longer one.")
    Duration interval;

    @Option(names = "--for", paramLabel = "DURATION", converter = Arguments.DurationConverter.class,
            description = "Stop after this long instead of at Ctrl-C.")
    @Nullable Duration duration;

    @Override
    public void run() {
        if (interval.toMillis() < 100) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--interval must be at least 100ms, "
                    + "got " + interval);
        }
        @Nullable Instant end = duration == null ? null : Instant.now().plus(duration);
        QueueStats last = look(true);
        print(null, last);
        while (end == null || Instant.now().isBefore(end)) {
            try {
                Thread.sleep(end == null ? interval.toMillis()
                        : Math.min(interval.toMillis(), Math.max(1, Duration.between(Instant.now(), end).toMillis())));
            } catch (InterruptedException stopped) {
                Thread.currentThread().interrupt();
                return;
            }
            QueueStats now = look(false);
            if (!now.equals(last)) {
                print(last, now);
                last = now;
            }
        }
    }

    private QueueStats look(boolean first) {
        try (LocalQueueDatabase database = open();
             SimpleQueue<byte[]> jobs = first ? Queues.existing(database, queue) : Queues.open(database, queue)) {
            return jobs.stats();
        }
    }

    private void print(@Nullable QueueStats before, QueueStats now) {
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("at", Instant.now().truncatedTo(ChronoUnit.MILLIS).toString());
        document.put("queue", queue);
        document.put("ready", now.ready());
        document.put("leased", now.processing());
        document.put("acked", now.acked());
        document.put("dead", now.failed());
        StringBuilder line = new StringBuilder(LocalTime.now(ZoneId.systemDefault()).truncatedTo(ChronoUnit.SECONDS)
                + "  " + queue + "  ");
        if (before == null) {
            line.append("following (Ctrl-C stops): ");
        }
        line.append(count("ready", now.ready(), before == null ? null : before.ready()));
        line.append(count("leased", now.processing(), before == null ? null : before.processing()));
        line.append(count("acked", now.acked(), before == null ? null : before.acked()));
        line.append(count("dead", now.failed(), before == null ? null : before.failed()));
        output.printLine(out(), document, line.toString().stripTrailing());
    }

    private static String count(String name, long now, @Nullable Long before) {
        long change = before == null ? 0 : now - before;
        return name + " " + Queues.count(now) + (change == 0 ? "" : " (" + (change > 0 ? "+" : "") + change + ")")
                + "  ";
    }
}
