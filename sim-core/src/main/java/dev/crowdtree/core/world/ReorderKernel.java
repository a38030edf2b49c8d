package dev.crowdtree.core.world;

import dev.crowdtree.core.schedule.Chunk;
import dev.crowdtree.core.schedule.ChunkKernel;
import dev.crowdtree.core.storage.SoaTable;

/** {@link World#reorder}'s kernel: one chunk = a range of rows of the column being reordered. */
final class ReorderKernel implements ChunkKernel {
    SoaTable table;
    int[] order;

    @Override
    public void execute(Chunk chunk) {
        table.reorderColumnRows(order, chunk.begin(), chunk.end());
    }

    @Override
    public String kernelName() {
        return "reorder " + table.name();
    }
}
