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
            sort(data, n);
            world.reorder(data.table, data.cellRows);
        }
        int h = count;
        data.table.ensureCapacity(n + h);
        data.table.markRowsWritten(n + h); // scratch rows: a row added there later is cleared first
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
        sort(data, n + h);
    }

    /**
     * The region's window of grid cells: its rectangle and two cells around it (the halo's agents
     * stand within one cell of it), set once by {@link CrowdSim}; the grid is sorted over these cells
     * only, so a region's grid costs its own area, not the world's.
     */
    int cx0;
    int cx1;
    int cy0;
    int cy1;
    private int[] scratch = new int[0];

    void window(int side, float cellSize, float x0, float x1, float y0, float y1) {
        cx0 = Math.max(0, (int) (x0 / cellSize) - 2);
        cx1 = Math.min(side - 1, (int) (x1 / cellSize) + 2);
        cy0 = Math.max(0, (int) (y0 / cellSize) - 2);
        cy1 = Math.min(side - 1, (int) (y1 / cellSize) + 2);
        scratch = new int[(cx1 - cx0 + 1) * (cy1 - cy0 + 1) + 1];
    }

    /** Whether grid cell {@code c} (of a grid {@code side} wide) lies in the window. */
    boolean inWindow(int c, int side) {
        int x = c % side;
        int y = c / side;
        return x >= cx0 && x <= cx1 && y >= cy0 && y <= cy1;
    }

    private void sort(CrowdData data, int rows) {
        GridSort.sortWindow(data.cell.data(), rows, data.side, cx0, cx1, cy0, cy1, data.cellStart, data.cellRows, scratch);
    }
}
