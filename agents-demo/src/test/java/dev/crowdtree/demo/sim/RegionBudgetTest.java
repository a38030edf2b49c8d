package dev.crowdtree.demo.sim;

import dev.crowdtree.demo.Main;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 23, defect 6: {@code --regions} 1024-4096, documented as valid, ran out of memory after a
 * minute with a storm of stack traces. The regions that fit in a JVM are computed, and a run beyond
 * them is refused with one line before any region is built.
 */
class RegionBudgetTest {
    private static final long GB = 1L << 30;

    @Test
    void theRegionsThatFitFollowTheHeapAndTheWorld() {
        // 6.3 GB (the default heap here), 100,000 agents: about 8.4 MB per region
        int fit = RegionBudget.maxRegions(100_000, 6_320 * (1L << 20));
        assertTrue(fit > 450 && fit < 700, "regions that fit: " + fit);
        assertTrue(RegionBudget.maxRegions(5_000_000, 6 * GB) < RegionBudget.maxRegions(100_000, 6 * GB),
                "a larger world leaves room for fewer regions");
        assertEquals(RegionBudget.MAX_PER_JVM, RegionBudget.maxRegions(1_000, 64 * GB), "never beyond Dominion's instances");
        assertEquals(0, RegionBudget.maxRegions(100_000_000, GB));
        assertDoesNotThrow(() -> RegionBudget.check(8, 8, 100_000, GB));
        assertDoesNotThrow(() -> RegionBudget.check(256, 1024, 20_000, 6 * GB), "a member's share of a larger run");
    }

    @Test
    void tooManyRegionsAreRefusedSayingWhatFits() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RegionBudget.check(1024, 1024, 100_000, 6 * GB));
        assertTrue(e.getMessage().startsWith("--regions 1024 would put 1024 regions in this JVM, more than the 1000 a JVM "
                + "can hold"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> RegionBudget.check(600, 600, 100_000, GB));
        assertTrue(e.getMessage().startsWith("--regions 600 would put 600 regions in this JVM, about "), e.getMessage());
        assertTrue(e.getMessage().contains("GB of heap (about 8.4 MB per region and 570 B per agent, at 100,000 agents), more than 80% of the "
                + "1.1 GB this JVM has (-Xmx); at most "), e.getMessage());
        assertTrue(e.getMessage().endsWith("give fewer regions, more heap, or spread them over member processes (--cluster)"),
                e.getMessage());
    }

    @Test
    void runRefusesTooManyRegionsWithOneLineBeforeBuildingAny() {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
            assertEquals(2, Main.execute("run", "--regions", "4096", "--ticks", "5"));
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
        String text = e.toString(StandardCharsets.UTF_8);
        assertEquals(1, text.strip().lines().count(), text);
        assertTrue(text.startsWith("error: --regions 4096 would put 4096 regions in this JVM, more than the 1000"), text);
    }
}
