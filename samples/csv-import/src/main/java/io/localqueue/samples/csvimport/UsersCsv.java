package io.localqueue.samples.csvimport;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * Writes the CSV of users the sample imports, the same bytes for the same number of rows: columns
 * {@code external_id,name,email}; every {@value #DUPLICATE_EVERY}th row repeats the row
 * {@value #DUPLICATE_DISTANCE} rows before it, as overlapping exports do; users whose number is a multiple of
 * {@value #INVALID_EVERY} have an email without an {@code @}.
 */
final class UsersCsv {

    static final String HEADER = "external_id,name,email";
    static final int DUPLICATE_EVERY = 50;
    static final int DUPLICATE_DISTANCE = 25;
    static final int INVALID_EVERY = 197;

    private static final String[] FIRST = {"Ada", "Alan", "Grace", "Linus", "Barbara", "Donald", "Edsger",
        "Frances", "Ken", "Margaret", "Dennis", "Radia", "Niklaus", "Hedy", "Tim", "Sophie", "John", "Katherine",
        "Leslie", "Anita"};
    private static final String[] LAST = {"Lovelace", "Turing", "Hopper", "Torvalds", "Liskov", "Knuth", "Dijkstra",
        "Allen", "Thompson", "Hamilton", "Ritchie", "Perlman", "Wirth", "Lamarr", "Berners-Lee", "Wilson", "Backus",
        "Johnson", "Lamport", "Borg", "Hoare", "Goldberg", "Kay", "Floyd", "Karp", "Tarjan", "Cerf"};

    /**
     * What a generated file holds.
     *
     * @param rows data rows, the repeated ones included
     * @param users distinct users
     * @param invalidUsers distinct users with an invalid email
     */
    record Summary(long rows, long users, long invalidUsers) {

        long validUsers() {
            return users - invalidUsers;
        }
    }

    private UsersCsv() {
    }

    /**
     * Writes {@code rows} rows to {@code file}, through a temporary file moved into place, so that a half-written
     * file is never imported.
     */
    static Summary write(Path file, int rows) throws IOException {
        if (rows < 1) {
            throw new IllegalArgumentException("rows must be at least 1, got " + rows);
        }
        Path target = file.toAbsolutePath();
        Files.createDirectories(target.getParent());
        Path partial = Files.createTempFile(target.getParent(), target.getFileName().toString(), ".partial");
        long users = 0;
        long invalid = 0;
        try {
            try (BufferedWriter out = Files.newBufferedWriter(partial, StandardCharsets.UTF_8)) {
                out.write(HEADER);
                out.write('\n');
                for (int line = 1; line <= rows; line++) {
                    boolean repeated = line % DUPLICATE_EVERY == 0;
                    int user = repeated ? line - DUPLICATE_DISTANCE : line;
                    if (!repeated) {
                        users++;
                        invalid += valid(user) ? 0 : 1;
                    }
                    out.write(row(user));
                    out.write('\n');
                }
            }
            try {
                Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException notAtomic) {
                Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(partial);
        }
        return new Summary(rows, users, invalid);
    }

    /** The CSV line of user {@code user}, without its line end. */
    static String row(int user) {
        String first = FIRST[user % FIRST.length];
        String last = LAST[(user / FIRST.length) % LAST.length];
        String local = (first + "." + last).toLowerCase(Locale.ROOT).replace("-", "") + user;
        String email = valid(user) ? local + "@example.com" : local + ".example.com";
        return externalId(user) + "," + first + " " + last + "," + email;
    }

    /** The external id of user {@code user}. */
    static String externalId(int user) {
        return String.format(Locale.ROOT, "u-%07d", user);
    }

    private static boolean valid(int user) {
        return user % INVALID_EVERY != 0;
    }
}
