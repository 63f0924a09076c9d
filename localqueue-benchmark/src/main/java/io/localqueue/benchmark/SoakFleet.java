package io.localqueue.benchmark;

import io.localqueue.testsupport.ChildProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * The producer and consumer JVMs of a soak run, one slot each: starts them, kills one with {@code kill -9} and
 * starts its successor, notices one that died on its own, and stops them all at the end. Every incarnation of a slot
 * writes its own ledger or log file, named {@code <slot>.<incarnation>.ledger} or {@code .log}, so that a line cut
 * by a kill never runs into its successor's.
 */
final class SoakFleet implements AutoCloseable {

    static final String LEDGER = ".ledger";
    static final String LOG = ".log";

    private static final Duration START_WAIT = Duration.ofMinutes(1);
    private static final Duration STOP_WAIT = Duration.ofMinutes(1);

    private final SoakProfile profile;
    private final Path directory;
    private final Path logs;
    private final Path scratch;
    private final List<Slot> producers = new ArrayList<>();
    private final List<Slot> consumers = new ArrayList<>();
    private final List<String> failures = new ArrayList<>();

    SoakFleet(SoakProfile profile, Path directory, Path logs, Path scratch) {
        this.profile = profile;
        this.directory = directory;
        this.logs = logs;
        this.scratch = scratch;
        for (int i = 0; i < profile.producers(); i++) {
            producers.add(new Slot("producer-" + i, i, true));
        }
        for (int i = 0; i < profile.consumers(); i++) {
            consumers.add(new Slot("consumer-" + i, i, false));
        }
    }

    /** Starts every producer and consumer and waits until each is running. */
    void startAll() throws IOException {
        for (Slot slot : all()) {
            slot.launch();
        }
        for (Slot slot : all()) {
            slot.awaitReady();
        }
    }

    List<Slot> producers() {
        return producers;
    }

    List<Slot> consumers() {
        return consumers;
    }

    /** Starts a successor for every child that died without being killed, and records each as a failure. */
    void replaceTheDead() throws IOException {
        for (Slot slot : all()) {
            ChildProcess child = slot.child;
            if (child != null && !child.isAlive()) {
                failures.add(slot.label() + " exited by itself with status " + child.awaitExit(Duration.ZERO)
                        + "; stderr tail: " + tail(child.stderr()));
                slot.launch();
                slot.awaitReady();
            }
        }
    }

    /** Stops the producers: each finishes its current put and exits. */
    void stopProducers() {
        stop(producers);
    }

    /** Stops the consumers: each stops its worker, letting running handlers finish, and exits. */
    void stopConsumers() {
        stop(consumers);
    }

    /** What went wrong with the children: deaths nobody caused, failed stops. */
    List<String> failures() {
        return failures;
    }

    /** Every ledger or log file the incarnations of producers ({@code true}) or consumers wrote. */
    List<Path> files(boolean ofProducers) throws IOException {
        String suffix = ofProducers ? LEDGER : LOG;
        try (Stream<Path> files = Files.list(logs)) {
            return files.filter(file -> file.getFileName().toString().endsWith(suffix)).sorted().toList();
        }
    }

    @Override
    public void close() {
        for (Slot slot : all()) {
            if (slot.child != null) {
                slot.child.close();
            }
        }
    }

    private void stop(List<Slot> slots) {
        for (Slot slot : slots) {
            slot.child().send("STOP");
        }
        for (Slot slot : slots) {
            ChildProcess child = slot.child();
            try {
                child.expect("DONE", STOP_WAIT);
                child.awaitSuccess();
            } catch (IllegalStateException failed) {
                failures.add(slot.label() + " did not stop cleanly: " + tail(failed.getMessage()));
            }
        }
    }

    private List<Slot> all() {
        List<Slot> all = new ArrayList<>(producers);
        all.addAll(consumers);
        return all;
    }

    private static String tail(@Nullable String text) {
        if (text == null) {
            return "";
        }
        return text.length() <= 2_000 ? text : "…" + text.substring(text.length() - 2_000);
    }

    /** One producer or consumer position, held by one child JVM at a time. */
    final class Slot {

        private final String name;
        private final int index;
        private final boolean producer;
        private int incarnation;
        private int kills;
        private @Nullable ChildProcess child;

        private Slot(String name, int index, boolean producer) {
            this.name = name;
            this.index = index;
            this.producer = producer;
        }

        String label() {
            return name + "." + incarnation;
        }

        int kills() {
            return kills;
        }

        /** Kills the current child with SIGKILL, waits {@code pause} and starts its successor. */
        void killAndRestart(Duration pause) throws IOException, InterruptedException {
            child().killHard();
            kills++;
            Thread.sleep(pause.toMillis()); // the pause before a supervisor restarts a crashed process
            launch();
            awaitReady();
        }

        private ChildProcess child() {
            ChildProcess current = child;
            if (current == null) {
                throw new IllegalStateException(name + " was never started");
            }
            return current;
        }

        private void launch() throws IOException {
            incarnation++;
            List<String> settings = new ArrayList<>(SoakQueue.settings(directory, profile));
            settings.add("id=" + index);
            Path file = logs.resolve(label() + (producer ? LEDGER : LOG));
            if (producer) {
                settings.add("ledger=" + file);
                settings.add("first=" + nextSequence());
                settings.add("rate=" + profile.putsPerSecond());
            } else {
                settings.add("log=" + file);
                settings.add("concurrency=" + profile.concurrency());
                settings.add("nackShare=" + profile.nackShare());
                settings.add("failShare=" + profile.failShare());
                settings.add("slowShare=" + profile.slowShare());
                settings.add("poisonEvery=" + profile.poisonEvery());
                settings.add("slowMillis=" + profile.slowHandler().toMillis());
                settings.add("workMillis=" + profile.longestWork().toMillis());
                settings.add("reackEvery=" + profile.reackEvery());
            }
            child = ChildJvms.start(label(), scratch, producer ? SoakProducerChild.ROLE : SoakConsumerChild.ROLE,
                    settings);
        }

        private void awaitReady() {
            child().expect("READY", START_WAIT);
        }

        /** The sequence number after the last one this producer's earlier incarnations logged. */
        private long nextSequence() throws IOException {
            long next = 0;
            try (Stream<Path> files = Files.list(logs)) {
                for (Path file : files.filter(f -> f.getFileName().toString().startsWith(name + ".")).toList()) {
                    for (String line : LineLog.read(file)) {
                        String key = line.substring(line.indexOf(' ') + 1);
                        next = Math.max(next, SoakProducerChild.sequence(key) + 1);
                    }
                }
            }
            return next;
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%s (%d kills)", label(), kills);
        }
    }
}
