package dev.crowdtree.statetree.model;

import dev.crowdtree.statetree.node.HostColumn;

import java.util.Objects;

/**
 * A per-agent host column a model declares: its name in the agent table, its element type and the
 * initial value of each agent ({@link ColumnInit}). Node types and host systems refer to it by name.
 *
 * @param name the column's name
 * @param type its element type
 * @param init each agent's initial value
 */
public record ModelColumn(String name, HostColumn.Type type, ColumnInit init) {
    /** Checks the fields. */
    public ModelColumn {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(init, "init");
        if (name.isBlank()) {
            throw new IllegalArgumentException("a model column needs a name");
        }
    }
}
