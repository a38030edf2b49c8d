package dev.crowdtree.demo.sim;

import dev.crowdtree.core.util.Checks;

/**
 * A split by agent id for models without positions: region {@code r} of {@code N} holds the agents
 * whose id {@code i} has {@code i * N / agents == r} (consecutive blocks), for the whole run. Every
 * region is a neighbour of every other (an event to any agent reaches its region the next tick), so
 * at most {@value #MAX_REGIONS} regions.
 */
public final class IdBlocks implements Partition {
    /** Most regions (each exchanges a message with every other every tick). */
    public static final int MAX_REGIONS = 64;

    private final int count;
    private final int agents;
    private final int[][] neighbours;

    /** @throws IllegalArgumentException when {@code count} is out of 1..{@value #MAX_REGIONS} or above {@code agents} */
    public IdBlocks(int count, int agents) {
        Checks.inRange("regions", count, 1, Math.min(MAX_REGIONS, Math.max(1, agents)));
        this.count = count;
        this.agents = agents;
        this.neighbours = new int[count][];
        for (int r = 0; r < count; r++) {
            int[] n = new int[count - 1];
            for (int o = 0, k = 0; o < count; o++) {
                if (o != r) {
                    n[k++] = o;
                }
            }
            neighbours[r] = n;
        }
    }

    @Override
    public int count() {
        return count;
    }

    @Override
    public int[] neighbours(int r) {
        return neighbours[r];
    }

    @Override
    public int nextHop(int from, int dest) {
        return dest;
    }

    @Override
    public int regionOf(int agent, float x, float y) {
        return (int) ((long) agent * count / agents);
    }

    @Override
    public boolean byPosition() {
        return false;
    }

    @Override
    public String toString() {
        return count + " regions (blocks of agent ids)";
    }
}
