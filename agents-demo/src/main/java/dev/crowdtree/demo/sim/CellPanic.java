package dev.crowdtree.demo.sim;

import dev.crowdtree.core.schedule.Chunk;
import dev.crowdtree.core.schedule.ChunkKernel;
import dev.crowdtree.demo.nodes.CrowdWorld;

/**
 * The cells' panic ({@link CrowdWorld#cellPanic}) on a dense grid: with at least as many agents as
 * cells, every cell's {@link CrowdWorld#panicOf} is computed once per tick, after the grid is
 * complete (sorted, reordered, halo appended) and before the StateTree phase, in parallel over
 * fixed ranges of cells, in cell order. The perception evaluator would otherwise scan a cell once
 * per run of its agents in each awake slice: at 1M agents in 250,000 cells that cost 4.5 ms of a
 * 30 ms tick, the pass about 0.5 ms. On a sparser grid (most cells empty) the pass over every cell
 * costs more than the scans it saves, so it is skipped and {@link #values} is null: the perception
 * scans. So it is in a region, whose grid is sorted over its window of cells only (the other
 * cells' starts are stale).
 *
 * <p>The values do not depend on the number of workers. Allocation: a worker's running-sum buffer
 * only, when a range of cells holds more rows than it has room for (by half as much again).
 * THREADING: {@link #compute} on the simulation thread between phases.
 */
final class CellPanic {
    private static final int CELLS_PER_CHUNK = 8192;

    private final CrowdData data;
    private final float[] panic;
    private boolean computed;
    /** Per worker: the running count of flagged rows over a range's rows (grown when a range has more). */
    private final int[][] prefix;

    /**
     * A range of cells in two loops without a data-dependent loop exit: the running sum of the danger
     * flags over the range's rows in grid order, then each cell's sum over its first {@value
     * CrowdWorld#PANIC_MATES} rows as the difference of two entries ({@link CrowdWorld#panicOf}'s
     * sum, so its value).
     */
    private final ChunkKernel byCell = new ChunkKernel() {
        @Override
        public void execute(Chunk c) {
            final int[] start = data.cellStart;
            final int[] rows = data.cellRows;
            final byte[] inDanger = data.danger.data();
            final int a = c.begin();
            final int b = c.end();
            final int k0 = start[a];
            final int span = start[b] - k0;
            int[] p = prefix[c.worker()];
            if (p.length < span + 1) {
                p = prefix[c.worker()] = new int[span + 1 + span / 2];
            }
            int sum = 0;
            for (int k = 0; k < span; k++) {
                p[k] = sum;
                sum += inDanger[rows[k0 + k]];
            }
            p[span] = sum;
            for (int cl = a; cl < b; cl++) {
                int from = start[cl] - k0;
                int n = Math.min(start[cl + 1] - k0 - from, CrowdWorld.PANIC_MATES);
                panic[cl] = n > 0 ? (float) (p[from + n] - p[from]) / n : 0f;
            }
        }

        @Override
        public String kernelName() {
            return "panic";
        }
    };

    CellPanic(CrowdData data, int cells) {
        this.data = data;
        this.panic = new float[cells];
        this.prefix = new int[data.world.executor().workers()][1];
    }

    /** The values of the last {@link #compute}, or null when it left them to the perception. */
    float[] values() {
        return computed ? panic : null;
    }

    /** Computes the values when the grid is dense and {@code wholeGrid} (a region's grid holds its window of cells only). */
    void compute(boolean wholeGrid) {
        computed = wholeGrid && data.table.size() >= panic.length;
        if (computed) {
            data.world.executor().run(byCell, panic.length, CELLS_PER_CHUNK);
        }
    }
}
