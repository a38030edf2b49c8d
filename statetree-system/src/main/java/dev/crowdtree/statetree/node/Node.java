package dev.crowdtree.statetree.node;

/**
 * Common base of tasks, conditions and evaluators: a configured, immutable batch kernel. Per-agent
 * state never lives in a node; it lives in the SoA slots the compiler assigned to the node's
 * declared fields, reached through the {@link NodeContext}.
 */
public abstract class Node {
    private final String name;
    private final int stream;

    protected Node(NodeConfig config) {
        this.name = config.name();
        this.stream = config.stream();
    }

    /** Display name (the authored name, or the type name). */
    public final String name() {
        return name;
    }

    /** This node's private random stream id, unique within the compiled tree. */
    public final int stream() {
        return stream;
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + name + "]";
    }
}
