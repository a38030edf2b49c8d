package dev.crowdtree.demo.sim;

import java.util.Locale;

/**
 * How many regions fit in one JVM's heap: each region is a world of its own (its table, its grid,
 * its StateTree runtime with chunk schedules, its Dominion instance), which costs about
 * {@value #FIXED_BYTES_PER_REGION} bytes whatever its agents, plus its share of the agents' rows and
 * of their id index (sparse: a hash table of the agents living in the region, not dense tables over
 * every id of the whole world, which took 10 bytes per world id in every region). Measured
 * on the crowd with the embedded tree: heap after GC with 16, 64 and 256 regions of a
 * 20,000-agent world, 154-172 MB, 501-525 MB and 1.87-2.05 GB (about 7 MB per region). A run that
 * would need more than {@value #HEAP_SHARE_PERCENT}% of the heap is refused with one line before any
 * region is built, where it used to run out of memory after a minute; so is one beyond the
 * {@value #MAX_PER_JVM} Dominion instances a JVM can hold.
 */
public final class RegionBudget {
    /** A region's cost whatever its agents (measured, rounded up). */
    static final long FIXED_BYTES_PER_REGION = 8L << 20;
    /**
     * An agent's row with its tree instance data and the reorder's share (measured on the whole crowd,
     * rounded up), plus its entry in its region's id index (14 bytes a slot, 2 to 4 slots per agent).
     */
    static final long BYTES_PER_AGENT = 400 + 56;
    /** The share of the heap the regions may take. */
    static final int HEAP_SHARE_PERCENT = 80;
    /** Regions one JVM can hold: each has a Dominion instance, and Dominion allows about 1,023 per JVM. */
    public static final int MAX_PER_JVM = 1000;

    private RegionBudget() {
    }

    /** The estimated heap of {@code regions} regions of a world of {@code agents} agents in one JVM. */
    public static long bytes(int regions, int agents) {
        return regions * FIXED_BYTES_PER_REGION + BYTES_PER_AGENT * agents * 5 / 4;
    }

    /** The most regions of a world of {@code agents} agents that fit in {@code maxHeap} bytes (at least 0). */
    public static int maxRegions(int agents, long maxHeap) {
        long budget = maxHeap / 100 * HEAP_SHARE_PERCENT - BYTES_PER_AGENT * agents * 5 / 4;
        return (int) Math.max(0, Math.min(MAX_PER_JVM, budget / FIXED_BYTES_PER_REGION));
    }

    /**
     * Checks that {@code inThisJvm} regions of {@code total} (the rest on other members) of a world of
     * {@code agents} agents fit in {@code maxHeap}.
     *
     * @throws IllegalArgumentException naming the count, the estimate, the heap and what would fit
     */
    public static void check(int inThisJvm, int total, int agents, long maxHeap) {
        int fit = maxRegions(agents, maxHeap);
        if (inThisJvm <= fit) {
            return;
        }
        String why = inThisJvm > MAX_PER_JVM
                ? String.format(Locale.ROOT, "more than the %d a JVM can hold (each is a world with its own Dominion "
                + "instance)", MAX_PER_JVM)
                : String.format(Locale.ROOT, "about %.1f GB of heap (about %.1f MB per region and %d B per agent, at %,d "
                        + "agents), more than %d%% of the %.1f GB this JVM has (-Xmx)", bytes(inThisJvm, agents) / 1e9,
                FIXED_BYTES_PER_REGION / 1e6, BYTES_PER_AGENT * 5 / 4, agents, HEAP_SHARE_PERCENT, maxHeap / 1e9);
        throw new IllegalArgumentException(String.format(Locale.ROOT, "--regions %d would put %d regions in this JVM, %s; "
                + "at most %d fit here: give fewer regions, more heap, or spread them over member processes (--cluster)",
                total, inThisJvm, why, fit));
    }
}
