package dev.crowdtree.demo.sim;

import dev.crowdtree.core.util.Checks;

/**
 * The world's fixed split into spatial regions: a grid of {@link #columns} x {@link #rows}
 * equal rectangles over the world ({@link #width} x {@link #height}), numbered row by row from the
 * origin, independent of how many cluster members run them. {@code N} regions make the most square grid with {@code N} cells
 * (8: 4 x 2). An agent belongs to the region its position falls in; a region's neighbours are the up
 * to 8 regions around it.
 *
 * <p>The crowd's agents interact with their grid-cell mates (perception, separation, shouts), so a
 * region sees, as its halo, the neighbours' agents in the grid cells its borders cut
 * ({@link HaloCells}): all of them lie within one {@code cellSize} of its rectangle.
 */
public final class RegionGrid implements Partition {
    /** Most regions: 4096 (a 64 x 64 grid). */
    public static final int MAX_REGIONS = 4096;

    public final int count;
    public final int columns;
    public final int rows;
    /** The world's extent in x. */
    public final float width;
    /** The world's extent in y. */
    public final float height;
    /** The most the halo reaches past a border: the crowd's grid cell, a model's reach. */
    public final float haloWidth;
    private final int[][] neighbours;

    /**
     * The crowd's split of its square world of side {@code worldSize}, with a halo one grid cell wide.
     *
     * @throws IllegalArgumentException when {@code count} is out of 1..{@value #MAX_REGIONS}, or a
     *                                  region would be narrower than two cells
     */
    public RegionGrid(int count, float worldSize, float cellSize) {
        this(count, worldSize, worldSize, cellSize);
    }

    /**
     * A split of a world {@code width} x {@code height} whose halo reaches {@code haloWidth} past a
     * border (a model's reach).
     *
     * @throws IllegalArgumentException when {@code count} is out of 1..{@value #MAX_REGIONS}, or a
     *                                  region would be narrower than twice the halo
     */
    public RegionGrid(int count, float width, float height, float haloWidth) {
        Checks.inRange("regions", count, 1, MAX_REGIONS);
        int r = 1;
        for (int d = 1; (long) d * d <= count; d++) {
            if (count % d == 0) {
                r = d;
            }
        }
        this.count = count;
        this.rows = r;
        this.columns = count / r;
        this.width = width;
        this.height = height;
        this.haloWidth = haloWidth;
        if (width / columns < 2 * haloWidth || height / rows < 2 * haloWidth) {
            throw new IllegalArgumentException("regions = " + count + " is too many for a world of " + width + " x "
                    + height + ": a region (" + columns + " x " + rows + " grid) must be at least twice the halo ("
                    + 2 * haloWidth + ") wide and high");
        }
        neighbours = new int[count][];
        for (int i = 0; i < count; i++) {
            int cx = i % columns;
            int cy = i / columns;
            int[] n = new int[8];
            int k = 0;
            for (int dy = -1; dy <= 1; dy++) {
                for (int dx = -1; dx <= 1; dx++) {
                    int x = cx + dx;
                    int y = cy + dy;
                    if ((dx != 0 || dy != 0) && x >= 0 && x < columns && y >= 0 && y < rows) {
                        n[k++] = y * columns + x;
                    }
                }
            }
            neighbours[i] = java.util.Arrays.copyOf(n, k);
            java.util.Arrays.sort(neighbours[i]);
        }
    }

    /** The region of a position (positions on or beyond the world's edge belong to the edge's regions). */
    public int regionOf(float x, float y) {
        int cx = Math.max(0, Math.min(columns - 1, (int) (x * columns / width)));
        int cy = Math.max(0, Math.min(rows - 1, (int) (y * rows / height)));
        return cy * columns + cx;
    }

    /** The neighbours of region {@code r}, ascending. Do not modify. */
    @Override
    public int[] neighbours(int r) {
        return neighbours[r];
    }

    @Override
    public int count() {
        return count;
    }

    /** One step along each axis toward {@code dest}. */
    @Override
    public int nextHop(int from, int dest) {
        int cx = from % columns;
        int cy = from / columns;
        int tx = dest % columns;
        int ty = dest / columns;
        return (cy + Integer.signum(ty - cy)) * columns + cx + Integer.signum(tx - cx);
    }

    @Override
    public int regionOf(int agent, float x, float y) {
        return regionOf(x, y);
    }

    @Override
    public boolean byPosition() {
        return true;
    }

    public float x0(int r) {
        return width * (r % columns) / columns;
    }

    public float x1(int r) {
        return width * (r % columns + 1) / columns;
    }

    public float y0(int r) {
        return height * (r / columns) / rows;
    }

    public float y1(int r) {
        return height * (r / columns + 1) / rows;
    }

    @Override
    public String toString() {
        return count + " regions (" + columns + " x " + rows + ")";
    }
}
