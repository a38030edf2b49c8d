package dev.crowdtree.statetree.definition;

import java.util.List;

/**
 * A parameter of a tree or a subtree: its name, type name ({@code bool}, {@code int},
 * {@code float}, {@code enum}, {@code entity}), default value (Boolean, Long, Double, or for an
 * enum a String) and, for an enum, its value names. Raw as authored; the compiler checks.
 */
public record ParameterDef(String name, String type, Object defaultValue, List<Object> values) {
    public ParameterDef {
        values = values == null ? null : java.util.Collections.unmodifiableList(new java.util.ArrayList<>(values));
    }

    /** A parameter that is not an enum. */
    public ParameterDef(String name, String type, Object defaultValue) {
        this(name, type, defaultValue, null);
    }
}
