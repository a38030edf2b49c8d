package dev.crowdtree.bench.soak;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The leak check on synthetic series of heap-after-GC samples. */
class HeapFlatnessTest {
    private static final long MB = 1_000_000L;

    @Test
    void aSteadyLeakIsDetected() {
        // 100 MB growing by 0.2% of it per sample: 50 samples, ~8% from the first kept window to the last
        long[] s = new long[50];
        for (int i = 0; i < s.length; i++) {
            s[i] = 100 * MB + i * 200_000L;
        }
        HeapFlatness.Verdict v = HeapFlatness.judge(s, 5.0);
        assertFalse(v.flat(), v.toString());
        assertTrue(v.driftPercent() > 5 && v.driftPercent() < 10, v.toString());
        assertTrue(v.reason().startsWith("heap after GC drifted +"), v.reason());
        assertEquals(5, v.warmup());
        assertEquals(5, v.window());
        assertEquals(s[5], v.first());
        assertEquals(s[49], v.last());
        assertEquals(s[5], v.min());
        assertEquals(s[49], v.max());
        assertEquals(s[7], v.firstMedian());
        assertEquals(s[47], v.lastMedian());
    }

    @Test
    void aSlowLeakIsDetectedOnlyOnceItExceedsTheTolerance() {
        long[] s = new long[50];
        for (int i = 0; i < s.length; i++) {
            s[i] = 100 * MB + i * 50_000L; // 0.05% per sample: ~2% over the run
        }
        assertTrue(HeapFlatness.judge(s, 5.0).flat());
        assertFalse(HeapFlatness.judge(s, 1.0).flat(), "the same series against a tighter tolerance");
        assertTrue(HeapFlatness.judge(s, 5.0).driftPercent() > 1.5);
    }

    @Test
    void aShrinkingHeapIsNotFlatEither() {
        long[] s = new long[20];
        for (int i = 0; i < s.length; i++) {
            s[i] = 100 * MB - i * MB;
        }
        HeapFlatness.Verdict v = HeapFlatness.judge(s, 5.0);
        assertFalse(v.flat());
        assertTrue(v.driftPercent() < -5, v.toString());
    }

    @Test
    void warmUpGrowthAndSingleOutliersDoNotCount() {
        long[] s = new long[50];
        for (int i = 0; i < s.length; i++) {
            s[i] = 100 * MB + (i % 3) * 300_000L; // noise of 0.6%
        }
        s[0] = 60 * MB; // warm-up: buffers still growing
        s[2] = 80 * MB;
        s[4] = 95 * MB;
        s[49] = 130 * MB; // one late outlier: the last window's median ignores it
        s[6] = 70 * MB; // one early outlier after warm-up
        HeapFlatness.Verdict v = HeapFlatness.judge(s, 5.0);
        assertTrue(v.flat(), v.toString());
        assertEquals(130 * MB, v.max(), "max and min still show the outliers");
        assertEquals(70 * MB, v.min());
        assertEquals("", v.reason());
    }

    @Test
    void tooFewSamplesAreNotJudgedFlat() {
        HeapFlatness.Verdict one = HeapFlatness.judge(new long[] {10 * MB}, 5.0);
        assertFalse(one.flat());
        assertTrue(one.reason().startsWith("too few heap samples"), one.reason());
        assertFalse(HeapFlatness.judge(new long[0], 5.0).flat());
        assertTrue(HeapFlatness.judge(new long[] {10 * MB, 10 * MB}, 5.0).flat(), "two samples, no warm-up");
        assertEquals(1, HeapFlatness.warmup(3));
        assertEquals(5, HeapFlatness.warmup(50));
        assertEquals(6, HeapFlatness.warmup(51));
    }
}
