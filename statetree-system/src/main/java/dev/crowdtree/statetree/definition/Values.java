package dev.crowdtree.statetree.definition;

import java.util.List;

/** How error messages show a value read from an asset or a scenario: the one {@link #describe}. */
public final class Values {
    /** Longer strings are cut here, so that a message stays one readable line. */
    static final int MAX_STRING = 40;

    private Values() {
    }

    /**
     * A short description of a value for error messages: {@code null}, {@code "text" (a string)}
     * (cut after {@value #MAX_STRING} characters), {@code true (a boolean)}, {@code 3 (a number)},
     * {@code a list}, {@code an object} (a map or a node definition), or else the value's type name.
     */
    public static String describe(Object v) {
        if (v == null) {
            return "null";
        }
        if (v instanceof String) {
            String s = (String) v;
            return "\"" + (s.length() > MAX_STRING ? s.substring(0, MAX_STRING) + "..." : s) + "\" (a string)";
        }
        if (v instanceof Boolean) {
            return v + " (a boolean)";
        }
        if (v instanceof Number) {
            return v + " (a number)";
        }
        if (v instanceof List) {
            return "a list";
        }
        if (v instanceof java.util.Map || v instanceof NodeDef) {
            return "an object";
        }
        return v.getClass().getSimpleName();
    }
}
