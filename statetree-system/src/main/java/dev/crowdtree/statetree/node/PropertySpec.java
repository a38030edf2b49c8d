package dev.crowdtree.statetree.node;


import java.util.List;

/**
 * One property of a node type's schema: how it is written in an asset and what the compiler
 * resolves it to for {@link NodeConfig}.
 *
 * @param name        property name in the asset
 * @param kind        what the property holds
 * @param valueType   for {@link Kind#CONSTANT} and {@link Kind#INPUT}: the value type; null means
 *                    "any number" (int or float)
 * @param required    whether the property must be present
 * @param defaultValue the value used when absent (Boolean, Long, Double or String), or null
 * @param min         smallest allowed constant (numbers only)
 * @param max         largest allowed constant (numbers only)
 * @param choices     allowed strings for {@link Kind#CHOICE}
 * @param typeFrom    for an input whose type is that of the parameter named by another property
 */
public record PropertySpec(String name, Kind kind, ValueType valueType, boolean required, Object defaultValue,
                           double min, double max, List<String> choices, String typeFrom) {

    /** What a property holds. */
    public enum Kind {
        /** A literal value (bool, int or float). */
        CONSTANT,
        /** A literal or a binding ({@code {"param": ..}}, {@code {"eval": ..}}, {@code {"task": ..}}). */
        INPUT,
        /** A literal string. */
        STRING,
        /** One of a fixed set of strings. */
        CHOICE,
        /** An event tag (a string, interned to an id). */
        TAG,
        /** The name of a parameter (resolved to a {@link ParamRef}). */
        PARAM,
        /** A state of the tree: a path, a unique name, or a relative target such as {@code @parent} (resolved to its index). */
        STATE,
        /**
         * An event payload: a number (the field {@code value}), a binding or function giving one, or
         * an object of named fields, each a bool, int or float literal, binding or function
         * (resolved to a {@link PayloadInput}).
         */
        PAYLOAD,
        /** A nested condition object. */
        CONDITION,
        /** A list of condition objects. */
        CONDITIONS
    }

    /** A readable description of what the property accepts, for error messages. */
    public String expected() {
        switch (kind) {
            case CONSTANT:
                return typeWord() + rangeWord();
            case INPUT:
                return typeWord() + rangeWord() + " or a binding {\"param\"|\"eval\"|\"task\": ...}";
            case STRING:
                return "a string";
            case CHOICE:
                return "one of " + choices;
            case TAG:
                return "an event tag (a non-empty string)";
            case PARAM:
                return "the name of a parameter";
            case STATE:
                return "a state: a path, a name unique in the tree, or @parent, @next, @next-parent";
            case PAYLOAD:
                return "a number, a binding, or an object of named bool/int/float fields (values may be bindings)";
            case CONDITION:
                return "a condition object";
            default:
                return "a list of condition objects";
        }
    }

    private String typeWord() {
        if (valueType == null) {
            return "a number";
        }
        switch (valueType) {
            case BOOL:
                return "a boolean";
            case INT:
                return "an integer";
            default:
                return "a number";
        }
    }

    private String rangeWord() {
        boolean lo = min != Double.NEGATIVE_INFINITY;
        boolean hi = max != Double.POSITIVE_INFINITY;
        if (valueType == ValueType.BOOL || (!lo && !hi)) {
            return "";
        }
        return " in " + (lo ? fmt(min) : "-inf") + ".." + (hi ? fmt(max) : "inf");
    }

    private static String fmt(double d) {
        return d == Math.rint(d) && Math.abs(d) < 1e15 ? String.valueOf((long) d) : String.valueOf(d);
    }
}
