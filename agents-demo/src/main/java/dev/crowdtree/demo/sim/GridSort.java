package dev.crowdtree.demo.sim;

import dev.crowdtree.core.schedule.Chunk;
import dev.crowdtree.core.schedule.ChunkExecutor;
import dev.crowdtree.core.schedule.ChunkKernel;

import java.util.Arrays;

/**
 * The spatial grid's counting sort, chunk-parallel: rows sorted by cell, stable (rows ascend within
 * a cell), exactly the order of the plain sequential counting sort ({@link #sortSequential}).
 *
 * <p>Algorithm, for {@code n} rows in the executor's chunks of rows and the grid's cells cut into
 * fixed ranges of {@value #RANGE} cells:
 * <ol>
 *   <li>per chunk (in the grid phase, {@link #countChunk}): the chunk's lowest and highest cell, a
 *       histogram of its cells over that window only, and its rows per cell range. The table is
 *       reordered by cell every few ticks, so a chunk's rows stay within a narrow window of cells and
 *       the windows together are about the size of the grid; a chunk whose window is wider than a limit marks the whole sort
 *       sequential (after the first reorder that does not happen with the crowd's movement; with
 *       one worker the sequential sort is used too, being cheaper there);</li>
 *   <li>simulation thread: each range's first row (the prefix over ranges of the chunks' rows per
 *       range);</li>
 *   <li>per cell range (parallel): for each cell, the chunks' counts in chunk order are replaced by
 *       their exclusive prefix (where that chunk's rows of the cell start among the cell's rows), and
 *       the cells' starts follow from the range's first row;</li>
 *   <li>per chunk (parallel): every row goes to {@code cellStart[cell] + chunkOffset(cell)++}, its
 *       chunk's rows in row order.</li>
 * </ol>
 * Only integer counts are summed, so the result does not depend on the number of workers or on which
 * of the two paths ran. Allocation: none once the per-chunk windows have reached their widest (a
 * window grows its histogram on the worker, by at least half, up to the limit).
 *
 * <p>THREADING: {@link #prepare} and {@link #finish} on the simulation thread between phases;
 * {@link #countChunk} from a kernel, for its own chunk.
 */
final class GridSort {
    /** Cells per range of the prefix phase. */
    static final int RANGE = 4096;

    private final int cells;
    private final int side;
    private int chunkSize = 1;
    private int chunks;
    private int rows;
    /** Widest window a chunk may histogram before the sort falls back to the sequential path. */
    private int limit;
    private int[] chunkMin = new int[0];
    private int[] chunkMax = new int[0];
    private int[][] hist = new int[0][];
    /** Per chunk: its rows per cell range ({@link #ranges} entries), summed from its histogram. */
    private int[][] rangeCount = new int[0][];
    /** 1 when the chunk's window was wider than {@link #limit} this tick. */
    private byte[] wide = new byte[0];
    private final int ranges;
    private final int[] rangeTotal;
    private final int[] rangeBase;
    private boolean lastParallel;
    /** Whether this tick counts per chunk (more than one worker). */
    private boolean counting;

    // the arrays the phases work on, set by finish() for its duration
    private int[] cell;
    private int[] cellStart;
    private int[] cellRows;

    private final ChunkKernel prefixKernel = new PrefixKernel();
    private final ChunkKernel scatterKernel = new ScatterKernel();
    private final ChunkKernel identityKernel = new IdentityKernel();

    /** A sort for a square grid of {@code side} x {@code side} cells. */
    GridSort(int side) {
        this.side = side;
        this.cells = side * side;
        this.ranges = (cells + RANGE - 1) / RANGE;
        this.rangeTotal = new int[ranges];
        this.rangeBase = new int[ranges];
    }

    /**
     * Before the phase that calls {@link #countChunk}: sizes the per-chunk arrays for {@code rows}
     * rows in chunks of {@code chunkSize}, to be sorted by {@code workers} workers. Simulation
     * thread; allocates only when the chunk count grew.
     */
    void prepare(int rows, int chunkSize, int workers) {
        this.counting = workers > 1;
        this.rows = rows;
        this.chunkSize = chunkSize;
        this.chunks = ChunkExecutor.chunkCount(rows, chunkSize);
        if (chunkMin.length < chunks) {
            int n = Math.max(chunks, chunkMin.length * 2);
            chunkMin = Arrays.copyOf(chunkMin, n);
            chunkMax = Arrays.copyOf(chunkMax, n);
            wide = Arrays.copyOf(wide, n);
            int[][] next = Arrays.copyOf(hist, n);
            int[][] nextRanges = Arrays.copyOf(rangeCount, n);
            for (int i = hist.length; i < n; i++) {
                next[i] = new int[0];
                nextRanges[i] = new int[ranges];
            }
            hist = next;
            rangeCount = nextRanges;
        }
        // A chunk of a table sorted by cell spans about cells * chunkSize / rows cells, plus the cells
        // its agents walked to since the last reorder (a few grid rows up or down).
        long sorted = rows == 0 ? cells : ((long) cells * chunkSize + rows - 1) / rows;
        long l = Math.max(4L * chunkSize, 2 * sorted) + 8L * side;
        this.limit = (int) Math.min(cells, l);
    }

    /**
     * The grid-phase part for chunk {@code chunk} (rows {@code begin .. end-1}), after its cells were
     * written: its window of cells and its histogram over the window. Kernel of that chunk.
     */
    void countChunk(int chunk, int[] cell, int begin, int end) {
        if (!counting) {
            return;
        }
        int lo = Integer.MAX_VALUE;
        int hi = -1;
        for (int r = begin; r < end; r++) {
            int c = cell[r];
            lo = Math.min(lo, c);
            hi = Math.max(hi, c);
        }
        int width = hi - lo + 1;
        chunkMin[chunk] = lo;
        chunkMax[chunk] = hi;
        if (width > limit) {
            wide[chunk] = 1;
            return;
        }
        wide[chunk] = 0;
        int[] h = hist[chunk];
        if (h.length < width) {
            h = new int[Math.min(limit, Math.max(width, h.length + h.length / 2))];
            hist[chunk] = h;
        } else {
            Arrays.fill(h, 0, width, 0);
        }
        for (int r = begin; r < end; r++) {
            h[cell[r] - lo]++;
        }
        // the chunk's rows per cell range, for the ranges' offsets
        int[] rc = rangeCount[chunk];
        for (int g = lo / RANGE, gEnd = hi / RANGE; g <= gEnd; g++) {
            int a = Math.max(lo, g * RANGE);
            int b = Math.min(hi + 1, (g + 1) * RANGE);
            int sum = 0;
            for (int c = a; c < b; c++) {
                sum += h[c - lo];
            }
            rc[g] = sum;
        }
    }

    /**
     * Completes the sort of the cells {@code cell[0 .. rows-1]} counted in this tick's grid phase:
     * {@code cellStart} (length cells + 1) and {@code cellRows} (length >= rows) as the sequential
     * counting sort would write them. Simulation thread, between phases.
     */
    void finish(ChunkExecutor executor, int[] cell, int[] cellStart, int[] cellRows) {
        boolean parallel = rows > 0 && counting;
        for (int j = 0; j < chunks && parallel; j++) {
            parallel = wide[j] == 0;
        }
        lastParallel = parallel;
        if (!parallel) {
            sortSequential(cell, rows, cellStart, cellRows);
            return;
        }
        this.cell = cell;
        this.cellStart = cellStart;
        this.cellRows = cellRows;
        try {
            Arrays.fill(rangeTotal, 0);
            for (int j = 0; j < chunks; j++) {
                int[] rc = rangeCount[j];
                for (int g = chunkMin[j] / RANGE, gEnd = chunkMax[j] / RANGE; g <= gEnd; g++) {
                    rangeTotal[g] += rc[g];
                }
            }
            int base = 0;
            for (int g = 0; g < ranges; g++) {
                rangeBase[g] = base;
                base += rangeTotal[g];
            }
            cellStart[cells] = base;
            executor.run(prefixKernel, ranges, 1);
            executor.run(scatterKernel, rows, chunkSize);
        } finally {
            this.cell = null;
            this.cellStart = null;
            this.cellRows = null;
        }
    }

    /** Whether the last {@link #finish} took the parallel path (tests). */
    boolean lastSortWasParallel() {
        return lastParallel;
    }

    /** {@code cellRows[k] = k} for the first {@code rows} entries (after a reorder by cell), in parallel. */
    void identity(ChunkExecutor executor, int[] cellRows, int rows) {
        this.cellRows = cellRows;
        try {
            executor.run(identityKernel, rows, Math.max(chunkSize, 1));
        } finally {
            this.cellRows = null;
        }
    }

    /**
     * The reference: a stable counting sort of rows {@code 0 .. rows-1} by {@code cell[row]}.
     * Rows of cell c end up in {@code cellRows[cellStart[c] .. cellStart[c+1])}, ascending.
     */
    static void sortSequential(int[] cell, int rows, int[] start, int[] cellRows) {
        Arrays.fill(start, 0);
        for (int r = 0; r < rows; r++) {
            start[cell[r] + 1]++;
        }
        for (int i = 1; i < start.length; i++) {
            start[i] += start[i - 1];
        }
        // place using start[c] as a cursor, then shift back (no second array needed)
        for (int r = 0; r < rows; r++) {
            cellRows[start[cell[r]]++] = r;
        }
        System.arraycopy(start, 0, start, 1, start.length - 1);
        start[0] = 0;
    }

    /**
     * {@link #sortSequential} for rows whose cells all lie in the window of cells
     * {@code [cx0, cx1] x [cy0, cy1]} of a grid {@code side} cells wide (a region and its halo): the
     * counting runs over the window's cells only, and only the window's entries of {@code start}
     * (and the entry after each window row's last cell, its end) are written; the others are left as
     * they were and must not be read. {@code scratch} holds at least {@code window cells + 1} ints.
     * The same order as the whole-grid sort.
     */
    static void sortWindow(int[] cell, int rows, int side, int cx0, int cx1, int cy0, int cy1, int[] start,
                           int[] cellRows, int[] scratch) {
        int w = cx1 - cx0 + 1;
        int n = w * (cy1 - cy0 + 1);
        Arrays.fill(scratch, 0, n + 1, 0);
        for (int r = 0; r < rows; r++) {
            int c = cell[r];
            scratch[(c / side - cy0) * w + c % side - cx0 + 1]++;
        }
        for (int i = 1; i <= n; i++) {
            scratch[i] += scratch[i - 1];
        }
        for (int y = cy0, l = 0; y <= cy1; y++, l += w) {
            System.arraycopy(scratch, l, start, y * side + cx0, w);
            // the cell after the row's last: its end (when it is the next row's first window cell, the same value)
            start[y * side + cx0 + w] = scratch[l + w];
        }
        for (int r = 0; r < rows; r++) {
            int c = cell[r];
            cellRows[scratch[(c / side - cy0) * w + c % side - cx0]++] = r;
        }
    }

    /** Per cell range: chunk offsets within each cell, and the cells' starts. */
    private final class PrefixKernel implements ChunkKernel {
        @Override
        public void execute(Chunk c) {
            final int[] start = cellStart;
            for (int g = c.begin(); g < c.end(); g++) {
                int a = g * RANGE;
                int b = Math.min(cells, a + RANGE);
                Arrays.fill(start, a, b, 0); // counts so far, per cell
                for (int j = 0; j < chunks; j++) {
                    int off = chunkMin[j];
                    int lo = Math.max(a, off);
                    int hi = Math.min(b, chunkMax[j] + 1);
                    int[] h = hist[j];
                    for (int cl = lo; cl < hi; cl++) {
                        int v = h[cl - off];
                        h[cl - off] = start[cl];
                        start[cl] += v;
                    }
                }
                int running = rangeBase[g];
                for (int cl = a; cl < b; cl++) {
                    int count = start[cl];
                    start[cl] = running;
                    running += count;
                }
            }
        }

        @Override
        public String kernelName() {
            return "grid sort: prefix";
        }
    }

    /** Per chunk of rows: each row to its place, the chunk's rows of a cell in row order. */
    private final class ScatterKernel implements ChunkKernel {
        @Override
        public void execute(Chunk c) {
            final int[] cl = cell;
            final int[] start = cellStart;
            final int[] out = cellRows;
            final int[] h = hist[c.index()];
            final int off = chunkMin[c.index()];
            for (int r = c.begin(), e = c.end(); r < e; r++) {
                int x = cl[r];
                out[start[x] + h[x - off]++] = r;
            }
        }

        @Override
        public String kernelName() {
            return "grid sort: scatter";
        }
    }

    private final class IdentityKernel implements ChunkKernel {
        @Override
        public void execute(Chunk c) {
            final int[] out = cellRows;
            for (int k = c.begin(), e = c.end(); k < e; k++) {
                out[k] = k;
            }
        }

        @Override
        public String kernelName() {
            return "grid sort: identity";
        }
    }
}
