package dev.crowdtree.statetree.node;

import dev.crowdtree.core.storage.Column;
import dev.crowdtree.core.storage.SoaTable;

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

        /**
         * Checks that {@code value} fits a column of this type: a finite float, an integer in 32-bit
         * range, or an integer -128..127 for a byte column.
         *
         * @throws IllegalArgumentException naming {@code column}, the value and what would be valid
         */
        public void check(String column, double value) {
            boolean ok;
            String valid;
            switch (this) {
                case FLOAT:
                    ok = Double.isFinite(value) && !Float.isInfinite((float) value);
                    valid = "a finite number in float range";
                    break;
                case INT:
                    ok = value == Math.rint(value) && value >= Integer.MIN_VALUE && value <= Integer.MAX_VALUE;
                    valid = "an integer in 32-bit range";
                    break;
                default:
                    ok = value == Math.rint(value) && value >= Byte.MIN_VALUE && value <= Byte.MAX_VALUE;
                    valid = "an integer -128..127";
            }
            if (!ok) {
                throw new IllegalArgumentException("host column '" + column + "' is " + word + "; " + value
                        + " does not fit it (valid: " + valid + ")");
            }
        }

        /** Sets element {@code index} of {@code array} (of this type) to {@code value}, converted. */
        public void set(Object array, int index, double value) {
            switch (this) {
                case FLOAT:
                    ((float[]) array)[index] = (float) value;
                    break;
                case INT:
                    ((int[]) array)[index] = (int) value;
                    break;
                default:
                    ((byte[]) array)[index] = (byte) value;
            }
        }

        /** Element {@code index} of {@code array} (of this type) as a double. */
        public double get(Object array, int index) {
            switch (this) {
                case FLOAT:
                    return ((float[]) array)[index];
                case INT:
                    return ((int[]) array)[index];
                default:
                    return ((byte[]) array)[index];
            }
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

    /** Adds a zero-filled column of this name and element type to {@code table} and returns it. */
    public Column addTo(SoaTable table) {
        switch (type) {
            case FLOAT:
                return table.addFloat(name);
            case INT:
                return table.addInt(name);
            default:
                return table.addByte(name);
        }
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
