package dev.crowdtree.demo.sim;

import dev.crowdtree.core.random.CounterRng;
import dev.crowdtree.core.schedule.Chunk;
import dev.crowdtree.core.schedule.ChunkExecutor;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The chunk-parallel grid sort writes exactly what the sequential counting sort writes. */
class GridSortTest {
    private static final int SIDE = 100;
    private static final int CELLS = SIDE * SIDE;

    /** Cells of a table sorted by cell, then agents walked up to {@code drift} cells in x and y. */
    private static int[] nearlySorted(int rows, int drift, long seed) {
        int[] cell = new int[rows];
        for (int r = 0; r < rows; r++) {
            int c = (int) ((long) r * CELLS / rows);
            int cx = c % SIDE + (int) CounterRng.range(-drift, drift + 1, seed, r, 0, 1, 0);
            int cy = c / SIDE + (int) CounterRng.range(-drift, drift + 1, seed, r, 0, 1, 1);
            cell[r] = Math.max(0, Math.min(SIDE - 1, cy)) * SIDE + Math.max(0, Math.min(SIDE - 1, cx));
        }
        return cell;
    }

    private static int[] random(int rows, long seed) {
        int[] cell = new int[rows];
        for (int r = 0; r < rows; r++) {
            cell[r] = (int) CounterRng.range(0, CELLS, seed, r, 0, 2, 0);
        }
        return cell;
    }

    /** Runs the sort as the crowd does: a counting phase over the chunks, then finish. */
    private static boolean sortParallel(GridSort sort, ChunkExecutor ex, int[] cell, int rows, int chunkSize,
                                        int[] start, int[] out) {
        sort.prepare(rows, chunkSize, ex.workers());
        ex.run((Chunk c) -> sort.countChunk(c.index(), cell, c.begin(), c.end()), rows, chunkSize);
        sort.finish(ex, cell, start, out);
        return sort.lastSortWasParallel();
    }

    private static void check(int[] cell, int rows, int chunkSize, int workers, boolean expectParallel) {
        int[] refStart = new int[CELLS + 1];
        int[] refRows = new int[rows];
        GridSort.sortSequential(cell, rows, refStart, refRows);
        int[] start = new int[CELLS + 1];
        int[] out = new int[rows];
        Arrays.fill(start, -7); // garbage from the last tick must not matter
        Arrays.fill(out, -7);
        GridSort sort = new GridSort(SIDE);
        try (ChunkExecutor ex = new ChunkExecutor(workers)) {
            for (int round = 0; round < 2; round++) { // the second round reuses the buffers
                boolean parallel = sortParallel(sort, ex, cell, rows, chunkSize, start, out);
                assertEquals(expectParallel, parallel, "parallel path taken");
                String what = rows + " rows, chunks of " + chunkSize + ", " + workers + " workers, round " + round;
                assertArrayEquals(refStart, start, "cellStart, " + what);
                assertArrayEquals(refRows, out, "cellRows, " + what);
            }
        }
    }

    @Test
    void nearlySortedCellsTakeTheParallelPathWithTwoOrMoreWorkersAndMatchTheSequentialSort() {
        for (int workers : new int[] {1, 2, 3, 8}) {
            for (int rows : new int[] {1, 63, 64, 1000, 20_000, 30_001}) {
                check(nearlySorted(rows, 2, rows), rows, 64, workers, workers > 1);
            }
            check(nearlySorted(50_000, 1, 3), 50_000, 4096, workers, workers > 1);
        }
    }

    @Test
    void crowdedCellsKeepRowsAscending() {
        int rows = 10_000;
        int[] cell = new int[rows];
        for (int r = 0; r < rows; r++) {
            cell[r] = r < 5000 ? 42 : 142 + (r % 3); // thousands of rows in one cell, across chunks
        }
        check(cell, rows, 256, 3, true);
    }

    @Test
    void scatteredCellsFallBackToTheSequentialSortWithTheSameResult() {
        check(random(20_000, 5), 20_000, 64, 2, false);
        // one chunk whose window spans the whole grid is still fine: the limit is the grid itself
        check(random(500, 6), 500, 4096, 2, true);
    }

    @Test
    void theIdentityAfterAReorderCoversEveryRow() {
        GridSort sort = new GridSort(SIDE);
        int[] out = new int[10_000];
        try (ChunkExecutor ex = new ChunkExecutor(2)) {
            sort.prepare(9_999, 64, 2);
            sort.identity(ex, out, 9_999);
        }
        for (int k = 0; k < 9_999; k++) {
            assertEquals(k, out[k]);
        }
        assertEquals(0, out[9_999]);
    }

    @Test
    void theCrowdsGridIsTheSequentialSortOfItsCellsEveryTick() throws Exception {
        try (CrowdSim sim = new CrowdSim(CrowdSetup.of(CrowdSimTest.config(20_000, 2)))) {
            CrowdData d = sim.data();
            int parallelTicks = 0;
            for (int t = 0; t < 70; t++) {
                sim.tick();
                int n = d.table.size();
                int[] refStart = new int[d.cellStart.length];
                int[] refRows = new int[n];
                GridSort.sortSequential(d.cell.data(), n, refStart, refRows);
                if (sim.tickNumber() % 32 != 0) { // after a reorder the rows are the identity instead
                    assertArrayEquals(refRows, Arrays.copyOf(d.cellRows, n), "cellRows at tick " + sim.tickNumber());
                }
                assertArrayEquals(refStart, d.cellStart, "cellStart at tick " + sim.tickNumber());
                parallelTicks += d.gridSort.lastSortWasParallel() ? 1 : 0;
            }
            assertTrue(parallelTicks == 70, "ticks sorted in parallel: " + parallelTicks);
            assertFalse(d.gridSort.lastSortWasParallel() && d.table.size() == 0);
        }
    }

    /** A region's window of cells, at an edge and inside, gives the whole-grid sort's rows and its starts inside the window. */
    @Test
    void aWindowOfCellsSortsLikeTheWholeGrid() {
        int side = 50;
        int[][] windows = {{0, 49, 0, 9}, {10, 20, 5, 30}, {40, 49, 40, 49}, {0, 12, 30, 49}};
        java.util.Random rnd = new java.util.Random(5);
        for (int[] w : windows) {
            int rows = 3000;
            int[] cell = new int[rows];
            for (int r = 0; r < rows; r++) {
                int x = w[0] + rnd.nextInt(w[1] - w[0] + 1);
                int y = w[2] + rnd.nextInt(w[3] - w[2] + 1);
                cell[r] = y * side + x;
            }
            int[] start = new int[side * side + 1];
            int[] sorted = new int[rows];
            GridSort.sortSequential(cell, rows, start, sorted);
            int[] wstart = new int[side * side + 1];
            java.util.Arrays.fill(wstart, -7);
            int[] wsorted = new int[rows];
            GridSort.sortWindow(cell, rows, side, w[0], w[1], w[2], w[3], wstart, wsorted,
                    new int[(w[1] - w[0] + 1) * (w[3] - w[2] + 1) + 1]);
            assertArrayEquals(sorted, wsorted);
            for (int y = w[2]; y <= w[3]; y++) {
                for (int x = w[0]; x <= w[1]; x++) {
                    int c = y * side + x;
                    assertEquals(start[c], wstart[c], "start of cell " + c);
                    assertEquals(start[c + 1], wstart[c + 1], "end of cell " + c);
                }
            }
        }
    }
}
