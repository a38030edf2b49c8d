package dev.crowdtree.bench.compare;

/**
 * What one (variant, implementation, agent count) run measured; one line of {@code compare.json}.
 *
 * @param variant               {@code hierarchical}, {@code flat} or {@code sleepy}
 * @param impl                  implementation id ({@link Impl#id()})
 * @param label                 human-readable implementation name
 * @param agents                population size
 * @param warmupTicks           ticks run after the start before measuring
 * @param warmupLimited         whether the warm-up time budget cut the warm-up short
 * @param measuredTicks         ticks measured (fewer than asked when the run's time budget ran out)
 * @param budgetLimited         whether the time budget cut the measured ticks short
 * @param meanTickNs            mean wall time of a tick
 * @param nsPerAgentTick        {@code meanTickNs / agents}
 * @param ticksPerSecond        {@code 1e9 / meanTickNs}
 * @param p50Ms                 tick-time median (HdrHistogram)
 * @param p99Ms                 tick-time 99th percentile
 * @param maxMs                 longest tick
 * @param heapBytesPerAgent     used heap after full GCs with the population alive, minus the same with an empty population, per agent
 * @param allocatedBytesPerTick bytes allocated per measured tick by the simulation thread inside the timed ticks and by every other thread throughout
 * @param instanceBytesPerAgent per-agent state-tree instance data the runtime reports ({@code StateTreeSystem.bytesPerAgent()}), -1 if none
 * @param awakeShare            mean over the measured ticks of {@code awakeLastTick() / agents} (the share of agents a
 *                              tick woke, {@code StateTreeRuntime}), -1 for implementations that cannot tell
 * @param occupancy             running agents per state id of our compiled tree, after the warm-up
 * @param occupancyAtTick       occupancy snapshots during the warm-up, by tick (every 25th)
 * @param stateHashAtTick       a hash of every agent's state id at the same ticks
 * @param setupSeconds          time to build and start the population
 * @param runSeconds            wall time of the whole child run
 * @param maxHeapMb             the child JVM's -Xmx
 */
public record RunResult(String variant, String impl, String label, int agents, int warmupTicks, boolean warmupLimited,
                        int measuredTicks,
                        boolean budgetLimited, double meanTickNs, double nsPerAgentTick, double ticksPerSecond,
                        double p50Ms, double p99Ms, double maxMs, double heapBytesPerAgent, double allocatedBytesPerTick,
                        int instanceBytesPerAgent, double awakeShare, int[] occupancy, java.util.Map<String, int[]> occupancyAtTick,
                        java.util.Map<String, String> stateHashAtTick, double setupSeconds, double runSeconds, long maxHeapMb) {
}
