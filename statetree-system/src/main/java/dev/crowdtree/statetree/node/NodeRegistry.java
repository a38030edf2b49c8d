package dev.crowdtree.statetree.node;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Node types by name, for the compiler, and what they need in a standalone run. Start from
 * {@link dev.crowdtree.statetree.nodes.BuiltinNodes#registry()} and {@link #register} your own, or
 * load every {@link NodeProvider} of a class path or of jars with
 * {@link dev.crowdtree.statetree.nodes.NodeProviders}.
 *
 * <p>A <em>standalone</em> run is one where no host program owns the agent table: the scenario
 * runner ({@code trace}) and the command line's headless {@code run} and {@code serve}. There, the
 * runtime creates the host columns the tree's nodes declare and fills them with the value given here
 * ({@link #standaloneColumn}), and binds each external the nodes need to an object made by the
 * factory given here ({@link #standaloneExternal}). A host that runs the tree on its own table binds
 * its own columns and externals and ignores these.
 *
 * <p>THREADING: fill it before compiling; compiling only reads it.
 */
public final class NodeRegistry {
    private final Map<String, NodeType> types = new LinkedHashMap<>();
    private final Map<String, Double> columnValues = new LinkedHashMap<>();
    private final Map<String, StandaloneExternal<?>> externals = new LinkedHashMap<>();
    /** Who registered each type ({@link #origin}), for the message when a name is taken twice. */
    private final Map<String, String> origins = new LinkedHashMap<>();
    private String origin = "the program";

    /**
     * How to make an external for a standalone run.
     *
     * @param name    the name nodes declare it under ({@link NodeType.Builder#external})
     * @param type    the type nodes declare
     * @param factory makes one object per runtime
     * @param <T>     the external's type
     */
    public record StandaloneExternal<T>(String name, Class<T> type, Supplier<? extends T> factory) {
        /** Checks the fields. */
        public StandaloneExternal {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(factory, "factory");
        }

        /** A new object for one runtime, checked against the declared type. */
        public T create() {
            T value = factory.get();
            if (!type.isInstance(value)) {
                throw new IllegalStateException("the standalone factory of external '" + name + "' made "
                        + (value == null ? "null" : "a " + value.getClass().getName()) + ", not a " + type.getName());
            }
            return value;
        }
    }

    /** An empty registry. */
    public NodeRegistry() {
    }

    /**
     * Adds a type; fails if the name is taken, naming who registered it first and who again
     * ({@link #origin}).
     */
    public NodeRegistry register(NodeType type) {
        if (types.putIfAbsent(type.name(), type) != null) {
            String first = origins.get(type.name());
            throw new IllegalArgumentException("a node type named '" + type.name() + "' is already registered by " + first
                    + (first.equals(origin) ? "" : "; " + origin + " registers it again") + " (node type names must "
                    + "be unique among what is loaded)");
        }
        origins.put(type.name(), origin);
        return this;
    }

    /**
     * Names who registers the types that follow (e.g. {@code "node provider acme.Nodes (lib/acme.jar)"}),
     * for the message when a name is taken twice; returns this registry.
     */
    public NodeRegistry origin(String who) {
        this.origin = Objects.requireNonNull(who, "origin");
        return this;
    }

    /** Who registered type {@code name} ({@link #origin} when it was registered), or null. */
    public String originOf(String name) {
        return origins.get(name);
    }

    /** The type named {@code name}, or null. */
    public NodeType get(String name) {
        return types.get(name);
    }

    /** Every type, by name, in registration order. */
    public Map<String, NodeType> types() {
        return Collections.unmodifiableMap(types);
    }

    /**
     * In a standalone run, host column {@code column} is created (if the table lacks it) and every
     * agent's value set to {@code value} at spawn: 0 or 1 for a byte column of flags, an int, or a
     * float. A later declaration of the same column replaces this one.
     *
     * @throws IllegalArgumentException for a blank name or a value that is not finite
     */
    public NodeRegistry standaloneColumn(String column, double value) {
        if (column == null || column.isBlank()) {
            throw new IllegalArgumentException("a standalone column needs a name");
        }
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException("standalone column '" + column + "': value " + value + " is not finite");
        }
        columnValues.put(column, value);
        return this;
    }

    /**
     * In a standalone run, the external {@code name} is bound to an object {@code factory} makes,
     * one per runtime. A later declaration of the same name replaces this one.
     */
    public <T> NodeRegistry standaloneExternal(String name, Class<T> type, Supplier<? extends T> factory) {
        externals.put(name, new StandaloneExternal<>(name, type, factory));
        return this;
    }

    /** The standalone value of host column {@code column}, or null when none was declared. */
    public Double standaloneColumnValue(String column) {
        return columnValues.get(column);
    }

    /** The standalone factory of external {@code name}, or null when none was declared. */
    public StandaloneExternal<?> standaloneExternal(String name) {
        return externals.get(name);
    }

    /** A mutable copy (types and standalone declarations). */
    public NodeRegistry copy() {
        NodeRegistry r = new NodeRegistry();
        r.types.putAll(types);
        r.origins.putAll(origins);
        r.origin = origin;
        r.columnValues.putAll(columnValues);
        r.externals.putAll(externals);
        return r;
    }
}
