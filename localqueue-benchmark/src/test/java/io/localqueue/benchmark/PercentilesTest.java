package io.localqueue.benchmark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class PercentilesTest {

    @Test
    void nearestRankPicksAnObservedSample() {
        long[] hundred = LongStream.rangeClosed(1, 100).toArray();
        Percentiles percentiles = Percentiles.of(hundred);
        assertThat(percentiles).isEqualTo(new Percentiles(100, 1, 50, 95, 99, 100));
    }

    @Test
    void rankIsRoundedUpAndClamped() {
        long[] sorted = {10, 20, 30};
        assertThat(Percentiles.nearestRank(sorted, 0.0)).isEqualTo(10);
        assertThat(Percentiles.nearestRank(sorted, 0.34)).isEqualTo(20);
        assertThat(Percentiles.nearestRank(sorted, 0.5)).isEqualTo(20);
        assertThat(Percentiles.nearestRank(sorted, 0.99)).isEqualTo(30);
        assertThat(Percentiles.nearestRank(sorted, 1.0)).isEqualTo(30);
    }

    @Test
    void binaryRoundingDoesNotSkipARank() {
        long[] twoHundred = LongStream.rangeClosed(1, 200).toArray();
        assertThat(Percentiles.nearestRank(twoHundred, 0.95)).isEqualTo(190);
        assertThat(Percentiles.nearestRank(twoHundred, 0.99)).isEqualTo(198);
    }

    @Test
    void leavesTheSamplesUnsorted() {
        long[] samples = {3, 1, 2};
        assertThat(Percentiles.of(samples).p50()).isEqualTo(2);
        assertThat(samples).containsExactly(3, 1, 2);
    }

    @Test
    void refusesNoSamples() {
        assertThatThrownBy(() -> Percentiles.of(new long[0])).isInstanceOf(IllegalArgumentException.class);
    }
}
