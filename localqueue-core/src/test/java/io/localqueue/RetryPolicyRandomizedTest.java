package io.localqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.localqueue.internal.time.Durations;
import java.math.BigDecimal;
import java.math.MathContext;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The delay arithmetic of {@link RetryPolicy} over random policies and attempts. The seed is printed and named in
 * every assertion; set {@code -Dlocalqueue.test.seed=<seed>} to replay a failure.
 */
class RetryPolicyRandomizedTest {

    private static final int POLICIES = 3_000;
    private static final int ATTEMPTS_PER_POLICY = 12;
    private static final long TEN_MINUTES = Duration.ofMinutes(10).toMillis();
    /** Caps checked against the exact formula stay below a year, where a double is exact to far under 1 ms. */
    private static final long ONE_YEAR = Duration.ofDays(365).toMillis();
    private static final MathContext EXACT = MathContext.DECIMAL128;

    private static long seed;

    /** The settings a random policy was made of, so that a failure shows them. */
    private record Settings(int maxAttempts, long initialMillis, double multiplier, long maxMillis, boolean jitter) {

        RetryPolicy policy() {
            return RetryPolicy.exponential(maxAttempts, Duration.ofMillis(initialMillis), multiplier,
                    Duration.ofMillis(maxMillis), jitter);
        }

        RetryPolicy withoutJitter() {
            return new Settings(maxAttempts, initialMillis, multiplier, maxMillis, false).policy();
        }
    }

    @BeforeAll
    static void chooseSeed() {
        String configured = System.getProperty("localqueue.test.seed");
        seed = configured == null || configured.isBlank() ? System.nanoTime() : Long.parseLong(configured.trim());
        System.out.println("RetryPolicyRandomizedTest seed " + seed + " (replay with -Dlocalqueue.test.seed=" + seed
                + ")");
    }

    @Test
    void theDelayStaysBetweenZeroAndTheCap() {
        Random random = new Random(seed);
        for (int i = 0; i < POLICIES; i++) {
            Settings settings = randomSettings(random, Durations.MAX_MILLIS);
            RetryPolicy policy = settings.policy();
            for (int j = 0; j < ATTEMPTS_PER_POLICY; j++) {
                int attempt = randomAttempt(random);
                double draw = randomDraw(random);
                long delay = policy.delayAfter(attempt, () -> draw).toMillis();

                assertThat(delay).as(() -> "seed " + seed + ", " + settings + ", attempt " + attempt + ", draw "
                        + draw).isBetween(0L, settings.maxMillis());
            }
        }
    }

    @Test
    void withoutJitterTheDelayIsTheExponentialCappedAtTheMaximum() {
        Random random = new Random(seed);
        for (int i = 0; i < POLICIES; i++) {
            Settings settings = randomSettings(random, ONE_YEAR);
            RetryPolicy policy = settings.withoutJitter();
            for (int j = 0; j < ATTEMPTS_PER_POLICY; j++) {
                int attempt = randomAttempt(random);
                double expected = exactBase(settings, attempt);
                long delay = policy.delayAfter(attempt, RetryPolicyRandomizedTest::noDraw).toMillis();

                // 1 ms for the truncation to whole milliseconds, and a few ulps for the double arithmetic.
                assertThat((double) delay).as(() -> "seed " + seed + ", " + settings + ", attempt " + attempt)
                        .isCloseTo(expected, within(1.0 + 4 * Math.ulp(expected)));
            }
        }
    }

    @Test
    void withoutJitterTheDelayNeverShrinksAsAttemptsGrow() {
        Random random = new Random(seed);
        for (int i = 0; i < POLICIES; i++) {
            Settings settings = randomSettings(random, Durations.MAX_MILLIS);
            RetryPolicy policy = settings.withoutJitter();
            int[] attempts = new int[ATTEMPTS_PER_POLICY];
            for (int j = 0; j < attempts.length; j++) {
                attempts[j] = randomAttempt(random);
            }
            Arrays.sort(attempts);
            long previous = 0;
            int previousAttempt = 1;
            for (int attempt : attempts) {
                long delay = policy.delayAfter(attempt, RetryPolicyRandomizedTest::noDraw).toMillis();
                long before = previous;
                int beforeAttempt = previousAttempt;

                assertThat(delay).as(() -> "seed " + seed + ", " + settings + ", attempt " + attempt
                        + " after attempt " + beforeAttempt).isGreaterThanOrEqualTo(before);
                previous = delay;
                previousAttempt = attempt;
            }
        }
    }

    @Test
    void hugeAttemptsSaturateAtTheCapWithoutOverflow() {
        Random random = new Random(seed);
        for (int i = 0; i < POLICIES; i++) {
            Settings settings = randomSettings(random, Durations.MAX_MILLIS);
            if (settings.initialMillis() == 0) {
                continue;
            }
            RetryPolicy policy = settings.withoutJitter();
            // Past this attempt the exponential exceeds every cap: 10 min × m^(a−1) > MAX_MILLIS.
            double logRange = Math.log((double) Durations.MAX_MILLIS / settings.initialMillis());
            double saturating = 2 + logRange / Math.log(settings.multiplier());
            if (saturating >= Integer.MAX_VALUE) {
                continue;
            }
            int from = (int) Math.ceil(saturating);
            for (int attempt : new int[] {from, from + random.nextInt(Integer.MAX_VALUE - from + 1),
                    Integer.MAX_VALUE - 1, Integer.MAX_VALUE}) {
                assertThat(policy.delayAfter(attempt, RetryPolicyRandomizedTest::noDraw))
                        .as(() -> "seed " + seed + ", " + settings + ", attempt " + attempt)
                        .isEqualTo(Duration.ofMillis(settings.maxMillis()));
            }
        }
    }

    @Test
    void withJitterTheDelayIsTheDrawTimesTheExponential() {
        Random random = new Random(seed);
        for (int i = 0; i < POLICIES; i++) {
            Settings drawn = randomSettings(random, ONE_YEAR);
            Settings settings = new Settings(drawn.maxAttempts(), drawn.initialMillis(), drawn.multiplier(),
                    drawn.maxMillis(), true);
            RetryPolicy policy = settings.policy();
            RetryPolicy unjittered = settings.withoutJitter();
            for (int j = 0; j < ATTEMPTS_PER_POLICY; j++) {
                int attempt = randomAttempt(random);
                double draw = randomDraw(random);
                double base = exactBase(settings, attempt);
                long delay = policy.delayAfter(attempt, () -> draw).toMillis();
                long ceiling = unjittered.delayAfter(attempt).toMillis();

                assertThat((double) delay).as(() -> "seed " + seed + ", " + settings + ", attempt " + attempt
                        + ", draw " + draw + ": floor(draw × base)").isCloseTo(Math.floor(draw * base), within(1.0));
                assertThat(delay).as(() -> "seed " + seed + ", " + settings + ", attempt " + attempt + ", draw "
                        + draw + ": between zero and the unjittered delay").isBetween(0L, ceiling);
            }
            int attempt = randomAttempt(random);
            assertThat(policy.delayAfter(attempt, () -> 0.0)).as(() -> "seed " + seed + ", " + settings
                    + ", attempt " + attempt + ", draw 0").isZero();
        }
    }

    @Test
    void aZeroInitialDelayAlwaysWaitsNothing() {
        Random random = new Random(seed);
        for (int i = 0; i < POLICIES; i++) {
            Settings drawn = randomSettings(random, Durations.MAX_MILLIS);
            Settings settings = new Settings(drawn.maxAttempts(), 0, drawn.multiplier(), drawn.maxMillis(),
                    drawn.jitter());
            RetryPolicy policy = settings.policy();
            for (int j = 0; j < ATTEMPTS_PER_POLICY; j++) {
                int attempt = randomAttempt(random);
                double draw = randomDraw(random);

                assertThat(policy.delayAfter(attempt, () -> draw)).as(() -> "seed " + seed + ", " + settings
                        + ", attempt " + attempt + ", draw " + draw).isZero();
            }
        }
    }

    @Test
    void aFixedPolicyWaitsItsDelayAfterEveryAttempt() {
        Random random = new Random(seed);
        for (int i = 0; i < POLICIES; i++) {
            int maxAttempts = 1 + random.nextInt(100);
            long millis = switch (random.nextInt(4)) {
                case 0 -> 0;
                case 1 -> Durations.MAX_MILLIS - random.nextInt(1_000);
                default -> randomMillis(random, TEN_MINUTES);
            };
            RetryPolicy policy = RetryPolicy.fixed(maxAttempts, Duration.ofMillis(millis));
            for (int j = 0; j < ATTEMPTS_PER_POLICY; j++) {
                int attempt = randomAttempt(random);
                double draw = randomDraw(random);

                assertThat(policy.delayAfter(attempt, () -> draw)).as(() -> "seed " + seed + ", fixed "
                        + maxAttempts + " × " + millis + " ms, attempt " + attempt + ", draw " + draw)
                        .isEqualTo(Duration.ofMillis(millis));
            }
        }
    }

    /**
     * Draws a policy: initial delay 0 to 10 min (often 0 or small), multiplier in (1, 10] (sometimes barely over 1),
     * cap from the initial delay up to {@code capLimit} (often equal to it or just above), jitter either way.
     */
    private static Settings randomSettings(Random random, long capLimit) {
        int maxAttempts = 1 + random.nextInt(random.nextBoolean() ? 10 : 1_000);
        long initial = switch (random.nextInt(8)) {
            case 0 -> 0;
            case 1 -> TEN_MINUTES;
            case 2, 3 -> 1 + random.nextInt(1_000);
            default -> randomMillis(random, TEN_MINUTES);
        };
        double multiplier = switch (random.nextInt(8)) {
            case 0 -> Math.nextUp(1.0);
            case 1 -> 1 + random.nextDouble() * 1e-6;
            case 2 -> 10.0;
            case 3 -> 2.0;
            default -> 10.0 - 9.0 * random.nextDouble();
        };
        if (multiplier <= 1.0) {
            multiplier = Math.nextUp(1.0);
        }
        long room = capLimit - initial;
        long max = switch (random.nextInt(6)) {
            case 0 -> initial;
            case 1 -> capLimit;
            case 2 -> initial + randomMillis(random, Math.min(room, TEN_MINUTES));
            default -> initial + randomMillis(random, Math.min(room, Duration.ofDays(1).toMillis()));
        };
        return new Settings(maxAttempts, initial, multiplier, max, random.nextBoolean());
    }

    private static long randomMillis(Random random, long atMost) {
        return (long) (random.nextDouble() * (atMost + 1.0)) % (atMost + 1);
    }

    /** Draws an attempt from 1 to {@link Integer#MAX_VALUE}, most of them small. */
    private static int randomAttempt(Random random) {
        return switch (random.nextInt(10)) {
            case 0, 1, 2 -> 1 + random.nextInt(5);
            case 3, 4 -> 1 + random.nextInt(30);
            case 5, 6 -> 1 + random.nextInt(1_000);
            case 7 -> 1 + random.nextInt(1_000_000);
            case 8 -> Integer.MAX_VALUE - random.nextInt(3);
            default -> 1 + random.nextInt(Integer.MAX_VALUE);
        };
    }

    /** Draws a jitter value in [0, 1), its ends included now and then. */
    private static double randomDraw(Random random) {
        return switch (random.nextInt(10)) {
            case 0 -> 0.0;
            case 1 -> Math.nextDown(1.0);
            default -> random.nextDouble();
        };
    }

    private static double noDraw() {
        throw new AssertionError("a policy without jitter drew a random value");
    }

    /**
     * Returns min(initial × multiplier^(attempt − 1), max) in 34-digit decimal arithmetic, independent of the
     * double arithmetic under test: clearly saturated attempts are told by logarithms, the rest powered exactly.
     */
    private static double exactBase(Settings settings, int attempt) {
        if (settings.initialMillis() == 0) {
            return 0;
        }
        double logExponential = Math.log(settings.initialMillis()) + (attempt - 1) * Math.log(settings.multiplier());
        if (logExponential > Math.log(settings.maxMillis()) + 1e-9) {
            return settings.maxMillis();
        }
        BigDecimal power = BigDecimal.ONE;
        BigDecimal square = new BigDecimal(settings.multiplier());
        for (long exponent = attempt - 1L; exponent > 0; exponent >>= 1) {
            if ((exponent & 1) == 1) {
                power = power.multiply(square, EXACT);
            }
            if (exponent > 1) {
                square = square.multiply(square, EXACT);
            }
        }
        BigDecimal exponential = power.multiply(BigDecimal.valueOf(settings.initialMillis()), EXACT);
        return exponential.min(BigDecimal.valueOf(settings.maxMillis())).doubleValue();
    }
}
