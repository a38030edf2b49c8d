package dev.crowdtree.demo.sim;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The halo a neighbour is sent holds every agent in a grid cell that also holds positions of the
 * neighbour (the only agents any kernel of the neighbour can read), whether the region borders fall
 * on cell borders or cut cells.
 */
class HaloCellsTest {
    @Test
    void everyCellThatHoldsPositionsOfBothRegionsIsInTheHalo() {
        SplittableRandom rnd = new SplittableRandom(11);
        float[][] worlds = {{400f, 4f}, {400f, 3f}, {1000f, 4f}, {250f, 2.5f}};
        int[] counts = {2, 3, 4, 5, 6, 7, 8, 12};
        int cutCells = 0;
        for (float[] w : worlds) {
            float size = w[0];
            float cs = w[1];
            int side = (int) Math.ceil(size / cs);
            HaloCells.Cells cells = (x, y) -> {
                int cx = Math.max(0, Math.min(side - 1, (int) (x / cs)));
                int cy = Math.max(0, Math.min(side - 1, (int) (y / cs)));
                return cy * side + cx;
            };
            for (int count : counts) {
                RegionGrid grid = new RegionGrid(count, size, cs);
                for (int r = 0; r < count; r++) {
                    HaloCells halo = new HaloCells(grid, cells, side, r);
                    for (int n : grid.neighbours(r)) {
                        int dx = n % grid.columns - r % grid.columns;
                        int dy = n / grid.columns - r / grid.columns;
                        for (int k = 0; k < 4000; k++) {
                            // a position of the neighbour within two cells of this region's rectangle
                            float qx = near(rnd, grid.x0(n), grid.x1(n), grid.x0(r), grid.x1(r), cs);
                            float qy = near(rnd, grid.y0(n), grid.y1(n), grid.y0(r), grid.y1(r), cs);
                            if (grid.regionOf(qx, qy) != n) {
                                continue;
                            }
                            int c = cells.cellOf(qx, qy);
                            if (holdsPositionOf(grid, r, c, side, cs, rnd)) {
                                cutCells++;
                                assertTrue(halo.needed(dx, dy, c), "world " + size + " m, cells " + cs + " m, "
                                        + count + " regions: cell " + c + " holds positions of regions " + r + " and " + n);
                            }
                        }
                    }
                }
            }
        }
        assertTrue(cutCells > 1000, "the test found cells cut by a border: " + cutCells);
    }

    @Test
    void bordersOnCellBordersNeedNoHalo() {
        // 8 regions over 400 m: columns of 100 m and rows of 200 m, both multiples of 4 m cells
        RegionGrid grid = new RegionGrid(8, 400f, 4f);
        int side = 100;
        HaloCells.Cells cells = (x, y) -> Math.max(0, Math.min(side - 1, (int) (y * 0.25f))) * side
                + Math.max(0, Math.min(side - 1, (int) (x * 0.25f)));
        for (int r = 0; r < 8; r++) {
            HaloCells halo = new HaloCells(grid, cells, side, r);
            for (int c = 0; c < side * side; c++) {
                for (int n : grid.neighbours(r)) {
                    assertFalse(halo.needed(n % 4 - r % 4, n / 4 - r / 4, c), "region " + r + " cell " + c);
                }
            }
        }
        // the same regions sideways, 3 columns of 133.3 m: the border cuts cell column 33
        RegionGrid three = new RegionGrid(3, 400f, 4f);
        HaloCells halo = new HaloCells(three, cells, side, 0);
        assertTrue(halo.needed(1, 0, 33));
        assertFalse(halo.needed(1, 0, 32));
        assertEquals(33, (int) (133.33333f * 0.25f));
    }

    /** A coordinate in [lo, hi) (the neighbour's range) within two cells of [rLo, rHi] (this region's). */
    private static float near(SplittableRandom rnd, float lo, float hi, float rLo, float rHi, float cs) {
        float a = Math.max(lo, rLo - 2 * cs);
        float b = Math.min(hi, rHi + 2 * cs);
        if (a >= b) {
            return lo;
        }
        return a + (float) rnd.nextDouble() * (b - a);
    }

    /** Whether cell {@code c} holds a position of region {@code r}: its corners, the floats around them, random points. */
    private static boolean holdsPositionOf(RegionGrid grid, int r, int c, int side, float cs, SplittableRandom rnd) {
        float x0 = (c % side) * cs;
        float y0 = (c / side) * cs;
        float[] xs = {Math.nextDown(x0), x0, Math.nextUp(x0), Math.nextDown(x0 + cs), x0 + cs - cs / 2, Math.nextDown(Math.nextDown(x0 + cs))};
        float[] ys = {Math.nextDown(y0), y0, Math.nextUp(y0), Math.nextDown(y0 + cs), y0 + cs - cs / 2, Math.nextDown(Math.nextDown(y0 + cs))};
        for (float x : xs) {
            for (float y : ys) {
                if (inCell(x, y, c, side, cs) && grid.regionOf(x, y) == r) {
                    return true;
                }
            }
        }
        for (int k = 0; k < 16; k++) {
            float x = x0 + (float) rnd.nextDouble() * cs;
            float y = y0 + (float) rnd.nextDouble() * cs;
            if (inCell(x, y, c, side, cs) && grid.regionOf(x, y) == r) {
                return true;
            }
        }
        return false;
    }

    private static boolean inCell(float x, float y, int c, int side, float cs) {
        int cx = Math.max(0, Math.min(side - 1, (int) (x / cs)));
        int cy = Math.max(0, Math.min(side - 1, (int) (y / cs)));
        return cy * side + cx == c;
    }
}
