package dev.crowdtree.demo.sim;

import dev.crowdtree.core.world.World;

import java.util.Arrays;

/**
 * Region mode: the neighbouring regions' agents a region sees this tick (read-only copies as of the
 * end of the last tick): id, position, danger flag and owning region, in the order received.
 * Filled by {@link Region} before the tick, appended to the grid by {@link CrowdSim}.
 */
final class Halo {
    int count;
    int[] id = new int[64];
    float[] x = new float[64];
    float[] y = new float[64];
    byte[] danger = new byte[64];
    int[] owner = new int[64];

    void clear() {
        count = 0;
    }

    void add(int agent, float px, float py, byte d, int ownerRegion) {
        if (count == id.length) {
            int n = count * 2;
            id = Arrays.copyOf(id, n);
            x = Arrays.copyOf(x, n);
            y = Arrays.copyOf(y, n);
            danger = Arrays.copyOf(danger, n);
            owner = Arrays.copyOf(owner, n);
        }
        id[count] = agent;
        x[count] = px;
        y[count] = py;
        danger[count] = d;
        owner[count] = ownerRegion;
        count++;
    }

    /**
     * Region mode's grid: the own rows (optionally reordered by cell first, as the whole world's are
     * every few ticks), then the halo's agents appended after the last row in the
     * columns the cell-mate kernels read ({@code snapX}, {@code snapY}, {@code cell}, {@code danger},
     * the agent id), sorted together by cell: a cell's own agents first, then its halo agents in the
     * order the neighbours sent them. Kernels and the tick loop iterate the own rows only.
     */
    void appendToGrid(CrowdData data, World world, boolean reorder) {
        int n = data.table.size();
        if (reorder) {
            GridSort.sortSequential(data.cell.data(), n, data.cellStart, data.cellRows);
            world.reorder(data.table, data.cellRows);
        }
        int h = count;
        data.table.ensureCapacity(n + h);
        float[] sx = data.snapX.data();
        float[] sy = data.snapY.data();
        int[] cell = data.cell.data();
        byte[] flags = data.danger.data();
        int[] ids = data.table.agentIds().data();
        for (int i = 0; i < h; i++) {
            int r = n + i;
            sx[r] = x[i];
            sy[r] = y[i];
            cell[r] = data.cellOf(x[i], y[i]);
            flags[r] = danger[i];
            ids[r] = id[i];
        }
        if (data.cellRows.length < n + h) {
            data.cellRows = new int[data.table.capacity()];
        }
        GridSort.sortSequential(cell, n + h, data.cellStart, data.cellRows);
    }
}
