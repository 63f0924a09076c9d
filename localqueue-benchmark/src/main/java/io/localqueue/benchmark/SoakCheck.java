package io.localqueue.benchmark;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * The ledger check of a soak run: the producers' ledgers (every put that returned), the consumers' logs (every
 * execution started, every outcome committed, every second ack tried) and the queue's rows, read with plain JDBC,
 * held against one another. Counts what the report prints and every broken invariant.
 */
final class SoakCheck {

    private static final int ACKED = 2;
    private static final int FAILED = 3;

    private final int maxAttempts;
    private final Map<Long, Row> rows = new HashMap<>();
    private final Set<String> receipts = new HashSet<>();

    long puts;
    long tracked;
    long lost;
    long duplicatedRows;
    long ledgerConflicts;
    long untracked;
    long payloadMismatches;
    long acked;
    long deadLetters;
    long pending;
    final Map<String, Long> reasons = new TreeMap<>();
    long failedWithoutReason;
    long overBudget;

    long executions;
    long executionsOfAcked;
    long extraExecutions;
    long extraAfterKill;
    long extraAfterLostLease;
    long extraAfterHandlerFailure;
    final Map<String, Long> decisions = new TreeMap<>();
    final Map<String, Long> outcomes = new TreeMap<>();
    long unknownExecutions;
    long startsOverBudget;
    long repeatedReceipts;
    long repeatedDeliveries;
    long keyMismatches;
    long ackedTwice;
    long ackLoggedNotStored;
    long ackedWithoutExecution;
    long executedAfterSettling;
    long lateAcks;
    long secondAcksRefused;
    long secondAcksAccepted;

    private SoakCheck(int maxAttempts) {
        this.maxAttempts = maxAttempts;
    }

    static SoakCheck of(Path file, String queue, int maxAttempts, List<Path> ledgers, List<Path> logs)
            throws IOException, SQLException {
        SoakCheck check = new SoakCheck(maxAttempts);
        check.readRows(file, queue);
        Set<Long> inLedgers = check.readLedgers(ledgers);
        check.untracked = check.rows.keySet().stream().filter(id -> !inLedgers.contains(id)).count();
        for (Path log : logs) {
            check.readLog(log);
        }
        check.settle(inLedgers);
        return check;
    }

    /** Every broken invariant, with its count; empty when all hold. */
    List<String> violations() {
        List<String> broken = new ArrayList<>();
        require(broken, lost, "puts that returned but whose job is not in the file");
        require(broken, duplicatedRows, "job keys stored in more than one row");
        require(broken, ledgerConflicts, "job keys logged with two ids, or ids with two keys");
        require(broken, payloadMismatches, "rows whose payload is not their key");
        require(broken, failedWithoutReason, "dead letters without a failure reason");
        require(broken, overBudget, "rows with more attempts than their budget");
        require(broken, startsOverBudget, "executions beyond the budget");
        require(broken, unknownExecutions, "executions of jobs not in the file");
        require(broken, keyMismatches, "executions whose payload is not the job's key");
        require(broken, repeatedReceipts, "receipts handed out twice");
        require(broken, repeatedDeliveries, "deliveries (job and attempt) executed twice");
        require(broken, ackedTwice, "jobs acknowledged twice");
        require(broken, secondAcksAccepted, "second acks of one delivery that were accepted");
        require(broken, ackLoggedNotStored, "acks reported committed whose job is not acked in the file");
        require(broken, ackedWithoutExecution, "acked jobs whose handler never started");
        require(broken, executedAfterSettling, "executions after the job was acked or dead-lettered");
        require(broken, lateAcks, "acks of executions that outlived their lease");
        return broken;
    }

    private static void require(List<String> broken, long count, String what) {
        if (count != 0) {
            broken.add(count + " " + what);
        }
    }

    private void readRows(Path file, String queue) throws SQLException {
        String sql = "SELECT id, job_id, status, attempts, max_attempts, failure_reason, payload FROM messages "
                + "WHERE queue = ?";
        Map<String, Long> byKey = new HashMap<>();
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
             PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setString(1, queue);
            try (ResultSet result = statement.executeQuery()) {
                while (result.next()) {
                    Row row = new Row(result.getString(2), result.getInt(3), result.getInt(4), result.getInt(5),
                            result.getString(6), maxAttempts);
                    rows.put(result.getLong(1), row);
                    if (byKey.put(row.key, result.getLong(1)) != null) {
                        duplicatedRows++;
                    }
                    if (!Arrays.equals(result.getBytes(7), ("\"" + row.key + "\"").getBytes(UTF_8))) {
                        payloadMismatches++;
                    }
                }
            }
        }
    }

    /** Reads every {@code <id> <key>} line and returns the ids they name. */
    private Set<Long> readLedgers(List<Path> ledgers) throws IOException {
        Map<String, Long> idByKey = new HashMap<>();
        Map<Long, String> keyById = new HashMap<>();
        for (Path ledger : ledgers) {
            for (String line : LineLog.read(ledger)) {
                puts++;
                int space = line.indexOf(' ');
                long id = Long.parseLong(line.substring(0, space));
                String key = line.substring(space + 1);
                Long earlierId = idByKey.putIfAbsent(key, id);
                String earlierKey = keyById.putIfAbsent(id, key);
                if ((earlierId != null && earlierId != id) || (earlierKey != null && !earlierKey.equals(key))) {
                    ledgerConflicts++;
                }
                Row row = rows.get(id);
                if (earlierId == null && (row == null || !row.key.equals(key))) {
                    lost++;
                }
            }
        }
        tracked = idByKey.size();
        return keyById.keySet();
    }

    private void readLog(Path log) throws IOException {
        for (String line : LineLog.read(log)) {
            String[] words = line.split(" ");
            switch (words[0]) {
                case "S" -> started(Long.parseLong(words[1]), Integer.parseInt(words[2]), words[3], words[4],
                        words[5]);
                case "A", "R", "D", "X", "L" ->
                        finished(words[0], Long.parseLong(words[1]), Integer.parseInt(words[2]));
                case "RR" -> secondAcksRefused++;
                case "RA" -> secondAcksAccepted++;
                default -> throw new IllegalStateException("unexpected line in " + log + ": " + line);
            }
        }
    }

    private void started(long id, int attempts, String receipt, String key, String decision) {
        executions++;
        decisions.merge(decision, 1L, Long::sum);
        if (!receipts.add(receipt)) {
            repeatedReceipts++;
        }
        Row row = rows.get(id);
        if (row == null) {
            unknownExecutions++;
            return;
        }
        if (!key.equals(row.key)) {
            keyMismatches++;
        }
        if (attempts >= maxAttempts) {
            startsOverBudget++;
        } else if (row.starts[attempts]++ > 0) {
            repeatedDeliveries++;
        } else if (decision.equals(SoakConsumerChild.SLOW)) {
            row.slow[attempts] = true;
        }
    }

    private void finished(String letter, long id, int attempts) {
        outcomes.merge(letter, 1L, Long::sum);
        Row row = rows.get(id);
        if (row == null || attempts >= maxAttempts) {
            return;
        }
        row.outcomes[attempts] = letter.charAt(0);
        if (letter.equals("A")) {
            row.acks++;
        }
    }

    /** Counts states, budgets, double acks and the executions of acked jobs, row by row. */
    private void settle(Set<Long> inLedgers) {
        for (Map.Entry<Long, Row> entry : rows.entrySet()) {
            Row row = entry.getValue();
            if (row.attempts > row.maxAttempts) {
                overBudget++;
            }
            if (row.acks > 1) {
                ackedTwice++;
            }
            if (row.acks > 0 && row.status != ACKED) {
                ackLoggedNotStored++;
            }
            if (inLedgers.contains(entry.getKey())) {
                countState(row);
            }
            countExecutions(row);
        }
    }

    private void countState(Row row) {
        if (row.status == ACKED) {
            acked++;
        } else if (row.status == FAILED) {
            deadLetters++;
            if (row.reason == null) {
                failedWithoutReason++;
            } else {
                reasons.merge(row.reason, 1L, Long::sum);
            }
        } else {
            pending++;
        }
    }

    /**
     * Attributes every execution of a job but its last to how the earlier one ended: a handler failure (nack), a
     * lost lease (the result was discarded), or nothing logged at all, which is a {@code kill -9} of its consumer.
     */
    private void countExecutions(Row row) {
        int last = -1;
        int count = 0;
        for (int attempt = 0; attempt < row.starts.length; attempt++) {
            if (row.starts[attempt] > 0) {
                last = attempt;
                count += row.starts[attempt];
            }
        }
        for (int attempt = 0; attempt <= last; attempt++) {
            char outcome = row.outcomes[attempt];
            if (attempt < last && row.starts[attempt] > 0 && (outcome == 'A' || outcome == 'D')) {
                executedAfterSettling++;
            }
            if (row.slow[attempt] && outcome == 'A') {
                lateAcks++;
            }
        }
        if (row.status != ACKED) {
            return;
        }
        if (count == 0) {
            ackedWithoutExecution++;
            return;
        }
        executionsOfAcked += count;
        extraExecutions += count - 1;
        for (int attempt = 0; attempt < last; attempt++) {
            if (row.starts[attempt] == 0) {
                continue;
            }
            switch (row.outcomes[attempt]) {
                case 'R' -> extraAfterHandlerFailure++;
                case 'X', 'L' -> extraAfterLostLease++;
                default -> extraAfterKill++;
            }
        }
    }

    /** One row of the queue and what the consumers' logs say happened to it. */
    private static final class Row {
        final String key;
        final int status;
        final int attempts;
        final int maxAttempts;
        final @Nullable String reason;
        final int[] starts;
        final char[] outcomes;
        final boolean[] slow;
        int acks;

        Row(String key, int status, int attempts, int maxAttempts, @Nullable String reason, int budget) {
            this.key = key;
            this.status = status;
            this.attempts = attempts;
            this.maxAttempts = maxAttempts;
            this.reason = reason;
            this.starts = new int[budget];
            this.outcomes = new char[budget];
            this.slow = new boolean[budget];
        }
    }
}
