package dev.crowdtree.demo.sim;

import dev.crowdtree.core.random.CounterRng;
import dev.crowdtree.core.world.World;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link CrowdData#cellOf} multiplies by the inverse cell size when the cell size is a power of two:
 * every position gets the cell the division gives, for powers of two and for other sizes.
 */
class CellOfTest {

    /** The definition: the division, clamped to the grid. */
    private static int byDivision(float px, float py, float cellSize, int side) {
        int cx = Math.max(0, Math.min(side - 1, (int) (px / cellSize)));
        int cy = Math.max(0, Math.min(side - 1, (int) (py / cellSize)));
        return cy * side + cx;
    }

    @Test
    void sameCellAsTheDivision() {
        for (float cellSize : new float[] {4f, 0.5f, 2f, 16f, 3f, 0.3f, 5f}) {
            CrowdConfig config = CrowdConfig.defaults().withAgents(10).withWorkers(1);
            config = new CrowdConfig(config.agents(), config.seed(), 1, config.dt(), 2000f, 0, 0, 0, 4, cellSize);
            try (World world = World.builder().workers(1).maxAgents(16).build()) {
                CrowdData data = new CrowdData(config, world);
                int side = config.cellsPerSide();
                for (int i = 0; i < 200_000; i++) {
                    float px = CounterRng.range(-10f, 2010f, 3, i, 0, 1, 0);
                    float py = CounterRng.range(-10f, 2010f, 3, i, 0, 1, 1);
                    if (i % 4 == 0) { // exactly on cell edges, and one ulp either side
                        px = (i / 4 % side) * cellSize;
                        py = Math.nextUp(px);
                        px = i % 8 == 0 ? px : Math.nextDown(px);
                    }
                    assertEquals(byDivision(px, py, cellSize, side), data.cellOf(px, py),
                            "cell size " + cellSize + ", position " + px + ", " + py);
                }
            }
        }
    }

    @Test
    void powersOfTwo() {
        assertTrue(CrowdData.isPowerOfTwo(4f));
        assertTrue(CrowdData.isPowerOfTwo(0.25f));
        assertTrue(CrowdData.isPowerOfTwo(1024f));
        assertFalse(CrowdData.isPowerOfTwo(3f));
        assertFalse(CrowdData.isPowerOfTwo(0.3f));
        assertFalse(CrowdData.isPowerOfTwo(Float.POSITIVE_INFINITY));
        assertFalse(CrowdData.isPowerOfTwo(Float.MIN_VALUE)); // subnormal: its inverse overflows
    }
}
