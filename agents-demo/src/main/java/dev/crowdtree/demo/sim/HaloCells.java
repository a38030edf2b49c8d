package dev.crowdtree.demo.sim;

/**
 * Which of a region's agents a neighbour needs in its halo: those in a grid cell that also holds
 * positions of the neighbour. Every kernel that reads other agents (perception's panic, separation,
 * {@code shout}) reads the agent's own grid cell only, so a neighbour's agents matter to a region only
 * in the cells a border between them cuts; an agent one cell from the border in a cell of its own
 * region is never anyone's cell mate there.
 *
 * <p>A cell's x range and a region column's x range are intervals of floats (the grid's cell and the
 * region grid's column are both monotone in x), so a border between two region columns cuts at most
 * one cell column: the one holding the last float of the left column and the first of the right, if
 * they share a cell. Found once per region, with the same float arithmetic as the grid
 * ({@link CrowdData#cellOf}) and the region grid ({@link RegionGrid#regionOf}); likewise in y.
 */
final class HaloCells {
    /** The cut cell column at the border on the left and on the right, the cut cell row below and above; -1: none. */
    private final int left;
    private final int right;
    private final int below;
    private final int above;
    private final int side;

    /** The crowd's grid: the cell of a position ({@link CrowdData#cellOf}). */
    @FunctionalInterface
    interface Cells {
        int cellOf(float x, float y);
    }

    /** For region {@code region} of {@code grid}, over a grid of {@code side} x {@code side} cells. */
    HaloCells(RegionGrid grid, Cells d, int side, int region) {
        int col = region % grid.columns;
        int row = region / grid.columns;
        float yIn = (grid.y0(region) + grid.y1(region)) / 2;
        float xIn = (grid.x0(region) + grid.x1(region)) / 2;
        this.side = side;
        left = col == 0 ? -1 : cut(grid, d, col - 1, yIn, true);
        right = col == grid.columns - 1 ? -1 : cut(grid, d, col, yIn, true);
        below = row == 0 ? -1 : cut(grid, d, row - 1, xIn, false);
        above = row == grid.rows - 1 ? -1 : cut(grid, d, row, xIn, false);
    }

    /**
     * The cell column (or row) holding both the last float of region column (or row) {@code k} and
     * the first of {@code k + 1}, or -1 when the border falls between cells.
     */
    private int cut(RegionGrid grid, Cells d, int k, float other, boolean alongX) {
        // the largest float v >= 0 in column (row) k: a binary search over the bits of non-negative
        // floats, which order like their values
        int lo = 0;
        int hi = Float.floatToIntBits(alongX ? grid.width : grid.height);
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (part(grid, Float.intBitsToFloat(mid), other, alongX) <= k) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        float last = Float.intBitsToFloat(lo);
        int a = cell(d, last, other, alongX);
        int b = cell(d, Math.nextUp(last), other, alongX);
        return a == b ? a : -1;
    }

    /** The region column (row) of a position. */
    private static int part(RegionGrid grid, float v, float other, boolean alongX) {
        int r = alongX ? grid.regionOf(v, other) : grid.regionOf(other, v);
        return alongX ? r % grid.columns : r / grid.columns;
    }

    /** The grid cell column (row) of a position. */
    private int cell(Cells d, float v, float other, boolean alongX) {
        int c = alongX ? d.cellOf(v, other) : d.cellOf(other, v);
        return alongX ? c % side : c / side;
    }

    /**
     * Whether the neighbour at ({@code dx}, {@code dy}) from this region (each -1, 0 or 1) needs an
     * agent in grid cell {@code cell} of this region.
     */
    boolean needed(int dx, int dy, int cell) {
        int cx = cell % side;
        int cy = cell / side;
        boolean x = dx == 0 || cx == (dx < 0 ? left : right);
        boolean y = dy == 0 || cy == (dy < 0 ? below : above);
        return x && y;
    }
}
