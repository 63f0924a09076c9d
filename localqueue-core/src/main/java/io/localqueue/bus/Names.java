package io.localqueue.bus;

import io.localqueue.InvalidArgumentException;
import java.util.regex.Pattern;

/** The rule for bus and subscription names, the one the Python library's bus enforces. */
final class Names {

    private static final Pattern VALID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]*");

    private Names() {
    }

    /** Tells whether a name is a valid bus or subscription name. */
    static boolean isValid(String name) {
        return VALID.matcher(name).matches();
    }

    /**
     * Returns the name when valid.
     *
     * @param name the name
     * @param parameter what the name is, for the message
     * @throws IllegalArgumentException naming the parameter when the name is null or invalid
     */
    static String requireValid(String name, String parameter) {
        if (name == null) {
            throw new InvalidArgumentException(parameter, parameter + " must not be null");
        }
        if (!isValid(name)) {
            throw new InvalidArgumentException(parameter, parameter + " '" + name + "' is invalid: it must start with a letter "
                    + "or digit and hold only letters, digits, '_', '.' and '-'");
        }
        return name;
    }
}
