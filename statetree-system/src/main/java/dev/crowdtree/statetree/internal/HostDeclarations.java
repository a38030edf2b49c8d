package dev.crowdtree.statetree.internal;

import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.node.External;
import dev.crowdtree.statetree.node.HostColumn;

/**
 * Lookups in what a tree's nodes declare of their host ({@link CompiledStateTree#hostColumns},
 * {@link CompiledStateTree#externals}), with the errors both runtimes give for a column or external
 * the tree does not declare, a value of the wrong type, or an external left unbound.
 */
public final class HostDeclarations {
    private HostDeclarations() {
    }

    /**
     * The handle (position in {@code hostColumns}) of host column {@code column}.
     *
     * @throws IllegalArgumentException naming the tree and the columns it declares when it has no such column
     */
    public static int column(CompiledStateTree tree, String column) {
        for (int i = 0; i < tree.hostColumns.size(); i++) {
            if (tree.hostColumns.get(i).name().equals(column)) {
                return i;
            }
        }
        throw new IllegalArgumentException("tree '" + tree.name + "' has no host column '" + column + "'; "
                + (tree.hostColumns.isEmpty() ? "its nodes declare none" : "its nodes declare " + tree.hostColumns));
    }

    /**
     * {@link #column}, after checking that {@code value} fits the column's type
     * ({@link HostColumn.Type#check}).
     */
    public static int checkedColumn(CompiledStateTree tree, String column, double value) {
        int c = column(tree, column);
        tree.hostColumns.get(c).type().check(column, value);
        return c;
    }

    /**
     * The index of the external {@code name} for a runtime's {@code bindExternal}, after checking
     * that {@code value} has the declared type.
     */
    public static int external(CompiledStateTree tree, String externalName, Object value) {
        for (External<?> e : tree.externals) {
            if (e.name().equals(externalName)) {
                if (!e.type().isInstance(value)) {
                    throw new IllegalArgumentException("external '" + externalName + "' of tree '" + tree.name
                            + "' must be a " + e.type().getName() + ", got "
                            + (value == null ? "null" : value.getClass().getName()));
                }
                return e.index();
            }
        }
        throw new IllegalArgumentException("tree '" + tree.name + "' needs no external '" + externalName
                + "'; it needs " + tree.externals);
    }

    /** Fails naming the first external in {@code bound} (by index) that is still null. */
    public static void requireBound(CompiledStateTree tree, Object[] bound) {
        for (External<?> e : tree.externals) {
            if (bound[e.index()] == null) {
                throw new IllegalStateException("tree '" + tree.name + "' needs external " + e
                        + "; bind it with bindExternal(\"" + e.name() + "\", ...) before ticking");
            }
        }
    }
}
