package dev.crowdtree.demo.sim;

/**
 * How a world is split into regions for a run across cluster members (docs/SCALE.md): how many,
 * which region holds an agent, which regions exchange messages every tick, and the next hop of a
 * message for a region that is not a neighbour. Two kinds: {@link RegionGrid} by position (agents
 * migrate when they cross a border, and see a halo of their neighbours' agents) and {@link IdBlocks}
 * by agent id (for models without positions: agents stay where they start, every region is every
 * other's neighbour). Immutable.
 */
public interface Partition {
    /** The number of regions. */
    int count();

    /** The regions region {@code r} exchanges with every tick, ascending. Do not modify. */
    int[] neighbours(int r);

    /** The neighbour of region {@code from} a message for region {@code dest} goes to next. */
    int nextHop(int from, int dest);

    /** The region that holds agent {@code agent} at ({@code x}, {@code y}) (NaN without positions). */
    int regionOf(int agent, float x, float y);

    /** Whether agents change region as they move (by position), so that regions exchange migrants and halos. */
    boolean byPosition();
}
