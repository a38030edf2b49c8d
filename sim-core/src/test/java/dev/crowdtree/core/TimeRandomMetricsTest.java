package dev.crowdtree.core;

import dev.crowdtree.core.metrics.TickMetrics;
import dev.crowdtree.core.random.CounterRng;
import dev.crowdtree.core.time.FixedStepClock;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TimeRandomMetricsTest {

    @Test
    void fixedStepClockAdvancesByExactSteps() {
        FixedStepClock c = new FixedStepClock(0.1f);
        assertEquals(0, c.tick());
        c.advance();
        c.advance();
        assertEquals(2, c.tick());
        assertEquals(2 * (double) 0.1f, c.time(), 1e-12);
    }

    @Test
    void stepsForAccumulatesRealTimeAndCapsCatchUp() {
        FixedStepClock c = new FixedStepClock(0.25f);
        assertEquals(0, c.stepsFor(0.2, 10));
        assertEquals(1, c.stepsFor(0.1, 10)); // 0.3 accumulated: one step, 0.05 carried
        assertEquals(1, c.stepsFor(0.2, 10)); // 0.25
        assertEquals(3, c.stepsFor(100, 3)); // capped, excess dropped
        assertEquals(0, c.stepsFor(0.1, 3));
        assertThrows(IllegalArgumentException.class, () -> c.stepsFor(-1, 3));
    }

    @Test
    void counterRngIsAPureFunctionOfItsKey() {
        float a = CounterRng.uniform(7, 12, 100, 3);
        for (int i = 0; i < 10; i++) {
            CounterRng.uniform(7, i, 100, 3); // other draws do not disturb it
        }
        assertEquals(a, CounterRng.uniform(7, 12, 100, 3));
        assertNotEquals(a, CounterRng.uniform(8, 12, 100, 3));
        assertNotEquals(a, CounterRng.uniform(7, 13, 100, 3));
        assertNotEquals(a, CounterRng.uniform(7, 12, 101, 3));
        assertNotEquals(a, CounterRng.uniform(7, 12, 100, 4));
        assertNotEquals(a, CounterRng.uniform(7, 12, 100, 3, 1));
    }

    @Test
    void counterRngIsRoughlyUniformAndInRange() {
        int[] buckets = new int[10];
        int n = 200_000;
        Set<Long> distinct = new HashSet<>();
        for (int i = 0; i < n; i++) {
            float u = CounterRng.uniform(1, i % 1000, i / 1000, 0);
            assertTrue(u >= 0f && u < 1f);
            buckets[(int) (u * 10)]++;
            distinct.add(CounterRng.bits(1, i % 1000, i / 1000, 0));
            int k = CounterRng.below(7, 1, i, 0, 0, 0);
            assertTrue(k >= 0 && k < 7);
        }
        assertEquals(n, distinct.size());
        for (int b : buckets) {
            assertTrue(Math.abs(b - n / 10) < n / 100, "bucket count " + b);
        }
    }

    @Test
    void metricsSummaryReportsPercentilesPerPhase() {
        TickMetrics m = new TickMetrics("think", "move");
        for (int i = 1; i <= 1000; i++) {
            m.recordPhase(0, i * 1_000L);
            m.recordPhase(1, 3 * i * 1_000L);
            m.recordTick(4 * i * 1_000L);
        }
        String s = m.summary();
        assertTrue(s.contains("p99.9") && s.contains("p50") && s.contains("max"), s);
        assertTrue(s.contains("think") && s.contains("move") && s.contains("tick"), s);
        assertTrue(s.contains("25.0%") && s.contains("75.0%"), s);
        assertEquals(1000, m.ticks().getTotalCount());
        assertEquals(2_000_000, m.ticks().getValueAtPercentile(50), 2_000_000 * 0.01);
        m.resetInterval();
        assertEquals(0, m.intervalTicks().getTotalCount());
        assertEquals(1000, m.ticks().getTotalCount());
    }
}
