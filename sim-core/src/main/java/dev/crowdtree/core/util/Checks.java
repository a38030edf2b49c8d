package dev.crowdtree.core.util;

/**
 * Argument checks whose messages always name the parameter, the value given and the valid range,
 * so that bad configuration is fixable from the message alone.
 *
 * <p>Allocation: only on the failure path. Threading: stateless.
 */
public final class Checks {
    private Checks() {
    }

    /**
     * Fails unless {@code min <= value <= max}.
     *
     * @return {@code value}
     * @throws IllegalArgumentException naming {@code name}, {@code value} and the range
     */
    public static int inRange(String name, int value, int min, int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(
                    name + " = " + value + " is out of range; valid range is " + min + ".." + max);
        }
        return value;
    }

    /**
     * Fails unless {@code value} is a power of two within {@code min..max}.
     *
     * @return {@code value}
     */
    public static int powerOfTwo(String name, int value, int min, int max) {
        if (value < min || value > max || Integer.bitCount(value) != 1) {
            throw new IllegalArgumentException(
                    name + " = " + value + " is not valid; it must be a power of two in the range "
                            + min + ".." + max);
        }
        return value;
    }

    /**
     * Fails unless {@code value} is finite and strictly positive.
     *
     * @return {@code value}
     */
    public static float positiveFinite(String name, float value) {
        if (!(value > 0f) || Float.isInfinite(value)) {
            throw new IllegalArgumentException(
                    name + " = " + value + " is not valid; it must be a finite number greater than 0");
        }
        return value;
    }

    /** Fails when {@code value} is null or blank. */
    public static String notBlank(String name, String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(name + " must be a non-empty string, got " +
                    (value == null ? "null" : "'" + value + "'"));
        }
        return value;
    }
}
