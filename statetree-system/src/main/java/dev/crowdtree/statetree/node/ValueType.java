package dev.crowdtree.statetree.node;

import java.util.Locale;

/** Types of parameters, evaluator outputs, task fields and node inputs. */
public enum ValueType {
    BOOL, INT, FLOAT;

    /** The name used in assets: {@code bool}, {@code int}, {@code float}. */
    public String assetName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses an asset name, or returns null. */
    public static ValueType parse(String s) {
        if (s == null) {
            return null;
        }
        switch (s) {
            case "bool":
                return BOOL;
            case "int":
                return INT;
            case "float":
                return FLOAT;
            default:
                return null;
        }
    }

    /** Whether a value of type {@code source} may feed an input of this type (int widens to float). */
    public boolean accepts(ValueType source) {
        return this == source || (this == FLOAT && source == INT);
    }
}
