package io.localqueue.internal.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A watch of a queue reads the jobs put since its last look, and the jobs it follows, by their rowids alone. */
class JobQueryPlanTest extends QueryPlanTestBase {

    @Test
    void jobsPutInARangeOfIdsAreReadByARangeOfTheRowid() throws SQLException {
        List<String> plan = plan(JobStatements.PUT, 10L, 20L, "q", 50);

        assertThat(plan).anySatisfy(step -> assertThat(step).contains("USING INTEGER PRIMARY KEY (rowid>? AND rowid<?)"));
        assertThat(plan).noneSatisfy(step -> assertThat(step).contains("idx_messages"));
    }

    @Test
    void jobsOfGivenIdsAreEachFoundByTheirRowid() throws SQLException {
        List<String> plan = plan(JobStatements.BY_IDS, "[1,2,3]", "q");

        assertThat(plan).anySatisfy(step -> assertThat(step).contains("USING INTEGER PRIMARY KEY (rowid=?)"));
        assertThat(plan).noneSatisfy(step -> assertThat(step).containsPattern("SCAN messages(?! USING)"));
    }
}
