package io.localqueue.samples.csvimport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a generated CSV holds, read from the file itself rather than from the generator's rules, and what the user
 * API's database holds, read with plain JDBC.
 */
record UsersFile(int rows, Set<String> validUsers, Set<String> invalidUsers) {

    static UsersFile read(Path csv) throws IOException {
        List<String> lines = Files.readAllLines(csv, StandardCharsets.UTF_8);
        if (!lines.get(0).equals("external_id,name,email")) {
            throw new IllegalStateException("unexpected header " + lines.get(0));
        }
        Set<String> valid = new TreeSet<>();
        Set<String> invalid = new TreeSet<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] fields = line.split(",", -1);
            (fields[2].contains("@") ? valid : invalid).add(fields[0]);
        }
        return new UsersFile(lines.size() - 1, valid, invalid);
    }

    int distinctUsers() {
        return validUsers.size() + invalidUsers.size();
    }

    /** The external ids of the users table, one entry per row, so that a duplicate would show twice. */
    static List<String> storedUsers(Path database) throws SQLException {
        List<String> ids = new ArrayList<>();
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + database);
             Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT external_id FROM users ORDER BY external_id")) {
            while (rows.next()) {
                ids.add(rows.getString(1));
            }
        }
        return ids;
    }
}
