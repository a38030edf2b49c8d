package dev.crowdtree.statetree.node;

/**
 * A column of the host's agent table that a node type reads or writes (Unreal's external data, in
 * SoA form): declared on the type with {@link NodeType.Builder#reads} or {@link NodeType.Builder#writes},
 * resolved by name when a runtime is created on a table, and handed to the node's kernels per batch
 * through {@link NodeContext#hostFloats}, {@link NodeContext#hostInts} or {@link NodeContext#hostBytes}.
 * A compiled tree lists the union of its nodes' columns ({@code CompiledStateTree.hostColumns}), so it
 * runs on any table that has them, and the declared access doubles as the tree's access set: a
 * runtime may check that nothing else is written (StateTreeSystem's access checks).
 *
 * @param name   the column's name in the host table
 * @param type   its element type
 * @param access {@link Access#READ} or {@link Access#WRITE} (which includes reading)
 */
public record HostColumn(String name, Type type, Access access) {
    /** Element type of a host column. */
    public enum Type {
        FLOAT("float"), INT("int"), BYTE("byte");

        private final String word;

        Type(String word) {
            this.word = word;
        }

        /** "float", "int" or "byte". */
        public String word() {
            return word;
        }

        /** A zeroed array of this type ({@code float[]}, {@code int[]} or {@code byte[]}). */
        public Object newArray(int length) {
            switch (this) {
                case FLOAT:
                    return new float[length];
                case INT:
                    return new int[length];
                default:
                    return new byte[length];
            }
        }
    }

    /** How a node uses a host column. */
    public enum Access {
        READ, WRITE
    }

    /** This column with the wider of both accesses. */
    public HostColumn merge(HostColumn other) {
        return access == Access.WRITE || other.access != Access.WRITE ? this : other;
    }

    @Override
    public String toString() {
        return name + " (" + type.word() + ", " + (access == Access.WRITE ? "written" : "read") + ")";
    }
}
