package dev.crowdtree.core.storage;

/**
 * The entity-to-row handle: which table and row an agent currently occupies. The table keeps the
 * reverse reference per row and fixes the handle of the row it moves during a swap-remove, so
 * handle and row always agree.
 *
 * <p>THREADING: {@code row} changes only inside {@link SoaTable#add} and {@link SoaTable#remove},
 * which run on the simulation thread at a sync point. Kernels may read it during a parallel phase.
 */
public class RowRef {
    SoaTable table;
    int row = -1;

    /** The row this handle occupies, or -1 when it is in no table. Valid until the next sync point. */
    public final int row() {
        return row;
    }

    /** The table holding the row, or null when the handle is in no table. */
    public final SoaTable table() {
        return table;
    }
}
