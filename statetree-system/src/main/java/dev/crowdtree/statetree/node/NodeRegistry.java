package dev.crowdtree.statetree.node;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Node types by name, for the compiler. Start from
 * {@link dev.crowdtree.statetree.nodes.BuiltinNodes#registry()} and {@link #register} your own.
 *
 * <p>THREADING: fill it before compiling; compiling only reads it.
 */
public final class NodeRegistry {
    private final Map<String, NodeType> types = new LinkedHashMap<>();

    /** An empty registry. */
    public NodeRegistry() {
    }

    /** Adds a type; fails if the name is taken. */
    public NodeRegistry register(NodeType type) {
        if (types.putIfAbsent(type.name(), type) != null) {
            throw new IllegalArgumentException("a node type named '" + type.name() + "' is already registered");
        }
        return this;
    }

    /** The type named {@code name}, or null. */
    public NodeType get(String name) {
        return types.get(name);
    }

    public Map<String, NodeType> types() {
        return Collections.unmodifiableMap(types);
    }

    /** A mutable copy. */
    public NodeRegistry copy() {
        NodeRegistry r = new NodeRegistry();
        r.types.putAll(types);
        return r;
    }
}
