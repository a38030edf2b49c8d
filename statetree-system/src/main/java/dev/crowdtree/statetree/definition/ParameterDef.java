package dev.crowdtree.statetree.definition;

import java.util.List;

/**
 * A parameter of a tree, a subtree or a state: its name, type name ({@code bool}, {@code int},
 * {@code float}, {@code enum}, {@code entity}), default value (Boolean, Long, Double, or for an
 * enum a String), for an enum its value names, and, for a state parameter only, the {@code value}
 * it gets when its state is entered instead of the default (a literal, a binding or a property
 * function; docs/SEMANTICS.md, rule X1). Raw as authored; the compiler checks.
 */
public record ParameterDef(String name, String type, Object defaultValue, List<Object> values, Object value) {
    public ParameterDef {
        values = values == null ? null : java.util.Collections.unmodifiableList(new java.util.ArrayList<>(values));
    }

    /** A parameter without a {@code value} (its default applies). */
    public ParameterDef(String name, String type, Object defaultValue, List<Object> values) {
        this(name, type, defaultValue, values, null);
    }

    /** A parameter that is not an enum. */
    public ParameterDef(String name, String type, Object defaultValue) {
        this(name, type, defaultValue, null);
    }
}
