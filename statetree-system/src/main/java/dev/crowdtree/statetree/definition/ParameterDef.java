package dev.crowdtree.statetree.definition;

/**
 * A parameter of a tree or a subtree: its name, type name ({@code bool}, {@code int},
 * {@code float}) and default value (Boolean, Long or Double). Raw as authored; the compiler checks.
 */
public record ParameterDef(String name, String type, Object defaultValue) {
}
