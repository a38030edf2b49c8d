package dev.crowdtree.statetree.exec;

import dev.crowdtree.core.storage.ByteColumn;
import dev.crowdtree.core.storage.Column;
import dev.crowdtree.core.storage.FloatColumn;
import dev.crowdtree.core.storage.IntColumn;
import dev.crowdtree.core.storage.SoaTable;
import dev.crowdtree.statetree.compiled.CompiledStateTree;
import dev.crowdtree.statetree.internal.HostDeclarations;
import dev.crowdtree.statetree.node.HostColumn;

import java.util.ArrayList;
import java.util.List;

/**
 * The host data a tree's nodes declared ({@link CompiledStateTree#hostColumns},
 * {@link CompiledStateTree#externals}), bound to one table: columns are resolved by name and type
 * once, when the runtime is created (a missing or mistyped column is an error naming the tree, the
 * column and what the table has); externals are bound by the host by name. {@link #refresh}, on the
 * simulation thread before each tick, puts the columns' current arrays (the table may have grown)
 * into the array every node context shares, so kernels index them directly.
 *
 * <p>Access checks (off by default): {@link #checkBefore}/{@link #checkAfter} hash every column of
 * the table that no node of the tree declares as written, except the runtime's own, around a tick,
 * and fail naming the columns that changed: the declared accesses are the tree's access set.
 */
final class HostBinding {
    private final CompiledStateTree tree;
    private final SoaTable table;
    private final Column[] columns;
    /** Shared with every NodeContext of the runtime: the columns' arrays by handle. */
    final Object[] arrays;
    /** Shared with every NodeContext of the runtime: the bound externals by index. */
    final Object[] externals;
    private List<Column> checked;
    private long[] hashes;

    /**
     * Binds the tree's host columns in {@code table}; with {@code create}, columns the table lacks
     * are added (zero-filled; for a runtime that owns its table).
     */
    HostBinding(CompiledStateTree tree, SoaTable table, boolean create) {
        this.tree = tree;
        this.table = table;
        List<HostColumn> declared = tree.hostColumns;
        columns = new Column[declared.size()];
        arrays = new Object[declared.size()];
        externals = new Object[tree.externals.size()];
        for (int i = 0; i < columns.length; i++) {
            HostColumn hc = declared.get(i);
            Column c = table.column(hc.name());
            if (c == null && create) {
                c = hc.addTo(table);
            }
            if (c == null) {
                throw new IllegalArgumentException("tree '" + tree.name + "' needs host column " + hc
                        + " but table '" + table.name() + "' has no column of that name; its columns are "
                        + names(table.columns()));
            }
            if (!expectedClass(hc.type()).isInstance(c)) {
                throw new IllegalArgumentException("tree '" + tree.name + "' needs host column " + hc
                        + " but column '" + hc.name() + "' of table '" + table.name() + "' holds "
                        + c.typeName() + " values");
            }
            columns[i] = c;
        }
        refresh();
    }

    private static Class<? extends Column> expectedClass(HostColumn.Type type) {
        switch (type) {
            case FLOAT:
                return FloatColumn.class;
            case INT:
                return IntColumn.class;
            default:
                return ByteColumn.class;
        }
    }

    private static List<String> names(List<Column> cols) {
        List<String> names = new ArrayList<>();
        for (Column c : cols) {
            names.add(c.name() + ":" + c.typeName());
        }
        return names;
    }

    /** Binds the host object the tree's nodes need under {@code name}. */
    void bindExternal(String name, Object value) {
        externals[HostDeclarations.external(tree, name, value)] = value;
    }

    /** Sets column {@code handle} of {@code row} (-1: of every row) to {@code value}, converted. */
    void set(int handle, int row, double value) {
        Object array = columns[handle].array(); // the table may have grown since the last refresh
        HostColumn.Type type = tree.hostColumns.get(handle).type();
        for (int r = row < 0 ? 0 : row, end = row < 0 ? table.size() : row + 1; r < end; r++) {
            type.set(array, r, value);
        }
    }

    /** Column {@code handle}'s value in {@code row}. */
    double get(int handle, int row) {
        return tree.hostColumns.get(handle).type().get(columns[handle].array(), row);
    }

    /** Before a tick, on the simulation thread: the columns' current arrays. */
    void refresh() {
        for (int i = 0; i < columns.length; i++) {
            arrays[i] = columns[i].array();
        }
    }

    /** Fails naming an external not bound yet (before a tick that runs nodes). */
    void requireExternals() {
        for (Object e : externals) { // an array loop: nothing allocated per tick
            if (e == null) {
                HostDeclarations.requireBound(tree, externals);
            }
        }
    }

    /** Access checks: hashes the columns no node declares as written ({@code ownColumns} excluded). */
    void checkBefore(List<Column> ownColumns) {
        if (checked == null) {
            checked = new ArrayList<>();
            for (Column c : table.columns()) {
                if (!ownColumns.contains(c) && !declaredWritten(c.name())) {
                    checked.add(c);
                }
            }
            hashes = new long[checked.size()];
        }
        for (int i = 0; i < hashes.length; i++) {
            hashes[i] = checked.get(i).contentHash(table.size());
        }
    }

    /** Access checks: fails naming the columns that changed since {@link #checkBefore}. */
    void checkAfter() {
        List<String> changed = new ArrayList<>();
        for (int i = 0; i < hashes.length; i++) {
            if (checked.get(i).contentHash(table.size()) != hashes[i]) {
                changed.add(checked.get(i).name());
            }
        }
        if (!changed.isEmpty()) {
            throw new IllegalStateException("a node of tree '" + tree.name + "' wrote host column(s) " + changed
                    + " that no node type declares with writes(...); the declared columns are " + tree.hostColumns);
        }
    }

    private boolean declaredWritten(String name) {
        for (HostColumn hc : tree.hostColumns) {
            if (hc.name().equals(name) && hc.access() == HostColumn.Access.WRITE) {
                return true;
            }
        }
        return false;
    }
}
