package dev.crowdtree.statetree.model;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The LOD bands: distance to band, hysteresis, validation, descriptions. */
class LodBandsTest {
    private static final LodBands B = LodBands.defaults();

    private static int band(float d, int current) {
        return B.band(d * d, current);
    }

    @Test
    void theDefaultBandsArePeriods1248At100250And500Metres() {
        assertEquals(4, B.count());
        int[] periods = {1, 2, 4, 8};
        for (int b = 0; b < 4; b++) {
            assertEquals(periods[b], B.periodOfBand(b));
            assertEquals(b, B.bandOfPeriod(periods[b]));
        }
        assertEquals(-1, B.bandOfPeriod(3));
        assertEquals(0, band(0, -1));
        assertEquals(0, band(99.9f, -1));
        assertEquals(1, band(100f, -1));
        assertEquals(1, band(249f, -1));
        assertEquals(2, band(250f, -1));
        assertEquals(3, band(500f, -1));
        assertEquals(3, band(5000f, -1));
        assertEquals(3, B.band(Float.POSITIVE_INFINITY, -1));
    }

    @Test
    void agentsGetFinerAtOnceButCoarserOnlyTenPercentPastTheBoundary() {
        assertEquals(0, band(105f, 0), "5 m past 100 m: stays in period 1");
        assertEquals(0, band(109.9f, 0));
        assertEquals(1, band(110.1f, 0), "past 110 m: period 2");
        assertEquals(2, band(300f, 0), "a jump skips bands");
        assertEquals(1, band(100f, 1));
        assertEquals(0, band(99.9f, 1), "back inside 100 m: period 1 at once");
        assertEquals(0, band(10f, 3), "finer at once, several bands at a time");
        assertEquals(3, band(551f, 2));
        assertEquals(2, band(549f, 2));
        assertEquals(3, band(549f, 3), "549 m is past 500 m: period 8 stays");
    }

    @Test
    void describeNamesEachBandWithItsDistances() {
        assertEquals("period 1: within 100 m", B.describe(0));
        assertEquals("period 2: 100-250 m", B.describe(1));
        assertEquals("period 4: 250-500 m", B.describe(2));
        assertEquals("period 8: beyond 500 m", B.describe(3));
        assertEquals("period 1: everywhere", new LodBands(new float[0], new int[] {1}).describe(0));
        assertTrue(B.toString().contains("period 8: beyond 500 m"));
    }

    @Test
    void badBandsAreRefusedWithAReason() {
        assertThrows(IllegalArgumentException.class, () -> new LodBands(new float[] {100}, new int[] {1}));
        assertThrows(IllegalArgumentException.class, () -> new LodBands(new float[] {100, 50}, new int[] {1, 2, 4}));
        assertThrows(IllegalArgumentException.class, () -> new LodBands(new float[] {100}, new int[] {1, 3}));
        assertThrows(IllegalArgumentException.class, () -> new LodBands(new float[] {100}, new int[] {2, 1}));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new LodBands(new float[] {-1}, new int[] {1, 2}));
        assertTrue(e.getMessage().contains("ascending"), e.getMessage());
    }
}
