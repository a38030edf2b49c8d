package dev.crowdtree.statetree.node;

import java.util.Objects;

/**
 * A handle to a host object a node type needs beyond columns (a spatial index, a resource
 * registry, ...: Unreal's external data for subsystems). Declared with
 * {@link NodeType.Builder#external}, obtained at construction with {@link NodeConfig#external}, bound
 * by the host on the runtime by name, and read in kernels with {@link NodeContext#external}, once per
 * batch. A compiled tree lists the externals its nodes need ({@code CompiledStateTree.externals}).
 *
 * @param <T> the object's type
 */
public final class External<T> {
    private final String name;
    private final Class<T> type;
    private final int index;

    /**
     * Compiler use: the tree's {@code index}-th external.
     *
     * @hidden
     */
    public External(String name, Class<T> type, int index) {
        this.name = Objects.requireNonNull(name);
        this.type = Objects.requireNonNull(type);
        this.index = index;
    }

    public String name() {
        return name;
    }

    public Class<T> type() {
        return type;
    }

    /** Position in the tree's list of externals. */
    public int index() {
        return index;
    }

    @Override
    public String toString() {
        return name + " (" + type.getName() + ")";
    }
}
