package dev.crowdtree.statetree.node;


/**
 * A per-agent field a node type declares. Private fields are the node's instance data (Unreal's
 * instance struct); outputs are also readable by other nodes through bindings.
 */
public record FieldSpec(String name, ValueType type, boolean output) {
}
