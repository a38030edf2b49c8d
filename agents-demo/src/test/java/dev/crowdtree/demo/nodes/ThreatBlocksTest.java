package dev.crowdtree.demo.nodes;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link ThreatBlocks}: a threat a point's block leaves out is one the perception scan would pass
 * over anyway (its float squared distance is at least {@code (reach + radius)^2}, so at least
 * {@code (best + radius)^2} for any best within the reach), so perceiving through the blocks gives
 * the same bits; and the lists keep the threats in index order.
 */
class ThreatBlocksTest {
    private static final float WORLD = 2000f;

    @Test
    void aThreatLeftOutOfAPointsBlockIsOneTheScanWouldSkip() {
        SplittableRandom rnd = new SplittableRandom(3);
        int max = 12;
        ThreatBlocks blocks = new ThreatBlocks(WORLD, max, ThreatBlocks.DEFAULT_REACH);
        float[] packed = new float[4 * max];
        long skipped = 0;
        long kept = 0;
        for (int round = 0; round < 200; round++) {
            int active = rnd.nextInt(max + 1);
            for (int j = 0; j < active; j++) {
                packed[4 * j] = (float) (rnd.nextDouble() * 2600 - 300); // some outside the world
                packed[4 * j + 1] = (float) (rnd.nextDouble() * 2600 - 300);
                packed[4 * j + 2] = rnd.nextBoolean() ? 6f : (float) (rnd.nextDouble() * 60);
                packed[4 * j + 3] = rnd.nextInt(2);
            }
            blocks.build(packed, active);
            int[] begin = blocks.begin();
            int[] list = blocks.list();
            assertEquals(active, begin[blocks.all() + 1] - begin[blocks.all()], "the all-threats block");
            for (int p = 0; p < 2000; p++) {
                float x = point(rnd);
                float y = point(rnd);
                int b = blocks.blockOf(x, y);
                boolean[] listed = new boolean[active];
                int last = -1;
                for (int q = begin[b]; q < begin[b + 1]; q++) {
                    int j = list[q] / 4;
                    assertTrue(j > last, "block " + b + " lists its threats in index order");
                    last = j;
                    listed[j] = true;
                }
                for (int j = 0; j < active; j++) {
                    if (listed[j]) {
                        kept++;
                        continue;
                    }
                    float dx = x - packed[4 * j];
                    float dy = y - packed[4 * j + 1];
                    float d2 = dx * dx + dy * dy;
                    float reach = ThreatBlocks.DEFAULT_REACH + packed[4 * j + 2];
                    assertTrue(d2 >= reach * reach, "threat " + j + " at (" + packed[4 * j] + ", " + packed[4 * j + 1]
                            + ") left out of block " + b + " of point (" + x + ", " + y + ") is within reach");
                    skipped++;
                }
            }
        }
        assertTrue(skipped > 100_000 && kept > 100_000, "both cases exercised: skipped " + skipped + ", kept " + kept);
    }

    /** Points anywhere, on block edges, on the world's edges, outside it, and NaN. */
    private static float point(SplittableRandom rnd) {
        switch (rnd.nextInt(6)) {
            case 0:
                return rnd.nextInt(ThreatBlocks.SIDE + 1) * (WORLD / ThreatBlocks.SIDE); // a block edge
            case 1:
                return Math.nextDown(rnd.nextInt(ThreatBlocks.SIDE + 1) * (WORLD / ThreatBlocks.SIDE));
            case 2:
                return (float) (rnd.nextDouble() * 3000 - 500); // inside or outside
            case 3:
                return rnd.nextInt(50) == 0 ? Float.NaN : WORLD;
            default:
                return (float) (rnd.nextDouble() * WORLD);
        }
    }

    @Test
    void aRangeBeyondTheReachGetsEveryThreat() {
        ThreatBlocks blocks = new ThreatBlocks(WORLD, 2, 500f);
        assertTrue(blocks.covers(500f));
        assertFalse(blocks.covers(500.5f));
        blocks.build(new float[] {10f, 10f, 6f, 0f, 1990f, 1990f, 6f, 1f}, 2);
        int[] begin = blocks.begin();
        int corner = blocks.blockOf(5f, 5f);
        assertEquals(1, begin[corner + 1] - begin[corner], "only the near threat at the corner");
        assertEquals(2, begin[blocks.all() + 1] - begin[blocks.all()]);
        assertEquals(blocks.all(), blocks.blockOf(-1f, 5f), "outside the world: every threat");
        assertEquals(blocks.all(), blocks.blockOf(Float.NaN, 5f));
        assertEquals(0, ThreatBlocks.none(WORLD).begin()[1], "no threats: empty lists");
    }
}
