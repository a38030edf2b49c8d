package dev.crowdtree.statetree.internal;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.node.ValueType;

/**
 * The checks of a runtime's {@code setParameter(agent, name, value)}: the same errors in both
 * runtimes. A value must be finite and fit the parameter: a bool takes 0 or 1; an int an integer in
 * the 32-bit range; an enum the index of one of its values; an entity an agent id or -1; a float any
 * finite number within the 32-bit float range. Nothing is clamped: a bad value is an
 * {@link IllegalArgumentException} naming the tree, the parameter and what would be valid.
 */
public final class ParameterValues {
    private ParameterValues() {
    }

    /** The index of parameter {@code name} of {@code tree}, after checking that {@code value} fits it. */
    public static int require(CompiledStateTree tree, String name, double value) {
        int p = tree.requireParam(name);
        String valid = validRange(tree, p, value);
        if (valid != null) {
            throw new IllegalArgumentException("parameter '" + name + "' of tree '" + tree.name + "' is "
                    + kind(tree, p) + ": it takes " + valid + ", got " + (Double.isNaN(value) ? "NaN" : value));
        }
        return p;
    }

    /** What parameter {@code p} takes, when {@code value} does not fit it; null when it does. */
    private static String validRange(CompiledStateTree tree, int p, double value) {
        boolean integral = value == Math.rint(value) && !Double.isInfinite(value);
        java.util.List<String> values = tree.enumValues(p);
        if (values != null) {
            return integral && value >= 0 && value < values.size() ? null
                    : "the index of one of its values 0.." + (values.size() - 1) + " " + values + " (or set it by name)";
        }
        if (tree.paramEntity(p)) {
            return integral && value >= -1 && value <= Integer.MAX_VALUE ? null : "an agent id, or -1 for none";
        }
        ValueType t = tree.paramType(p);
        if (t == ValueType.BOOL) {
            return value == 0 || value == 1 ? null : "0 (false) or 1 (true)";
        }
        if (t == ValueType.INT) {
            return integral && value >= Integer.MIN_VALUE && value <= Integer.MAX_VALUE ? null
                    : "an integer in -2147483648..2147483647";
        }
        return Double.isFinite(value) && Math.abs(value) <= Float.MAX_VALUE ? null
                : "a finite number within the 32-bit float range (about ±3.4e38)";
    }

    private static String kind(CompiledStateTree tree, int p) {
        return tree.enumValues(p) != null ? "an enum" : tree.paramEntity(p) ? "an entity"
                : "a" + (tree.paramType(p) == ValueType.INT ? "n " : " ") + tree.paramType(p).assetName();
    }
}
