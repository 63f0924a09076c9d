package io.localqueue.benchmark;

/**
 * Whether a scenario did the work it claims to have measured: every job accounted for, none twice, final queue
 * counts as expected. A failed validation makes the whole run fail, whatever the timings.
 *
 * @param passed true when every check held
 * @param detail what was checked, or what went wrong
 */
public record Validation(boolean passed, String detail) {

    /**
     * A passed validation.
     *
     * @param detail what was checked
     * @return the validation
     */
    public static Validation passed(String detail) {
        return new Validation(true, detail);
    }

    /**
     * A failed validation.
     *
     * @param detail what went wrong
     * @return the validation
     */
    public static Validation failed(String detail) {
        return new Validation(false, detail);
    }

    /**
     * Passes when {@code condition} holds.
     *
     * @param condition the check
     * @param detail what was checked, reported either way
     * @return the validation
     */
    public static Validation check(boolean condition, String detail) {
        return new Validation(condition, detail);
    }

    /**
     * Combines two validations: passed only when both passed.
     *
     * @param other the second validation
     * @return the combination, with both details
     */
    public Validation and(Validation other) {
        return new Validation(passed && other.passed, detail + "; " + other.detail);
    }
}
